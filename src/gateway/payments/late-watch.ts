/**
 * The late watch: an expired or cancelled payment is still checked for a day, because a transfer
 * can land after the countdown (a slow wallet, a customer who paid from an old tab). Late transfers
 * come mostly in the first minutes, so the watch starts at the configured interval and backs off:
 * ×4 after 10 minutes, ×20 after an hour. With the default 30 s that is 20 + 25 + 138 = 183 checks
 * over 24 h instead of 2,880 at a flat rate, the difference that dominated RPC cost at volume
 * (docs/scaling.md). A merchant verify call checks at once whatever the schedule.
 */
const TEN_MINUTES = 10 * 60_000;
const ONE_HOUR = 60 * 60_000;

/** Delay before the next late-watch check, `sinceEndMs` after the payment expired or was cancelled. */
export function lateCheckDelay(sinceEndMs: number, lateIntervalMs: number): number {
  if (sinceEndMs < TEN_MINUTES) return lateIntervalMs;
  if (sinceEndMs < ONE_HOUR) return lateIntervalMs * 4;
  return lateIntervalMs * 20;
}
