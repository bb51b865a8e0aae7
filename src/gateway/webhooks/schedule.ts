/** Retry timing for webhook deliveries (DESIGN §6). */

/**
 * Delay before the next attempt after `attempts` failed ones, or null when the schedule is used up.
 * Jitter spreads retries of many events so a recovering receiver is not hit all at once.
 */
export function retryDelay(scheduleMs: readonly number[], attempts: number, jitter: number, random = Math.random): number | null {
  const base = scheduleMs[attempts - 1];
  if (base === undefined) return null;
  const spread = base * jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}
