/**
 * What public verify serves, kept in memory so that thousands of polling browser tabs cost neither a
 * database query nor a JSON serialisation each (issue 3 §8: 3,000 verifies a second on two cores).
 *
 * - Token → payment id: a payment token opens one payment forever, so that mapping is cached as is
 *   (keyed by the token's SHA-256, never the token itself).
 * - Payment id → the public view, serialised once per sequence: the JSON text up to (and without) the
 *   per-request `serverTime`. Every state change made by this instance drops the entry at once
 *   (PaymentService's onEvent), so one instance never serves a stale state. Changes it cannot see —
 *   another instance's transition on a shared PostgreSQL, a merchant renamed by the CLI — show after
 *   at most `ttlMs`.
 * Both maps are bounded; beyond the bound the oldest entries go first.
 */
import type { PublicPayment } from '../../core/payment.js';
import { toPublicPayment } from '../payments/view.js';
import type { MerchantRow, PaymentRow } from '../store/store.js';

export interface CachedView {
  paymentId: string;
  status: PaymentRow['status'];
  sequence: number;
  /** `{...,"merchant":{...}` — the JSON of the view without serverTime and the closing brace. */
  jsonHead: string;
  until: number;
}

export class PublicViewCache {
  private readonly tokens = new Map<string, string>();
  private readonly views = new Map<string, CachedView>();
  /** Invalidation counter, and the count at each payment's last invalidation (a read that began before it must not be cached). */
  private epoch = 0;
  private readonly invalidated = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  paymentIdOf(tokenHash: string): string | undefined {
    return this.tokens.get(tokenHash);
  }

  view(paymentId: string): CachedView | undefined {
    const v = this.views.get(paymentId);
    if (!v) return undefined;
    if (v.until <= this.now()) {
      this.views.delete(paymentId);
      return undefined;
    }
    return v;
  }

  /** Take this before reading a row from the database, and hand it to remember(). */
  readStamp(): number {
    return this.epoch;
  }

  /** Stores the row's public view (and the token mapping when given); returns it. */
  remember(row: PaymentRow, merchant: Pick<MerchantRow, 'name' | 'logo_url'>, readStamp: number, tokenHash?: string): CachedView {
    if (tokenHash) bounded(this.tokens, this.maxEntries).set(tokenHash, row.id);
    const { serverTime: _t, ...view } = toPublicPayment(row, merchant) satisfies PublicPayment;
    const json = JSON.stringify(view);
    const entry: CachedView = { paymentId: row.id, status: row.status, sequence: row.sequence, jsonHead: json.slice(0, -1), until: this.now() + this.ttlMs };
    // A read that started before the payment last changed may hold the old state: answer it, do not keep it.
    if ((this.invalidated.get(row.id) ?? -1) >= readStamp) return entry;
    const known = this.views.get(row.id);
    if (known && known.sequence > row.sequence && known.until > this.now()) return known;
    bounded(this.views, this.maxEntries).set(row.id, entry);
    return entry;
  }

  /** The payment changed (or may have): the next verify reads it again. */
  invalidate(paymentId: string): void {
    this.views.delete(paymentId);
    this.invalidated.delete(paymentId);
    bounded(this.invalidated, this.maxEntries).set(paymentId, this.epoch++);
  }

  /** The full JSON body for this request: the cached head plus the server's clock now. */
  static body(entry: CachedView, now = new Date()): string {
    return `${entry.jsonHead},"serverTime":"${now.toISOString()}"}`;
  }
}

function bounded<K, V>(map: Map<K, V>, max: number): Map<K, V> {
  while (map.size >= max) map.delete(map.keys().next().value!);
  return map;
}
