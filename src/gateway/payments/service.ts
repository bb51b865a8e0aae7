/**
 * The payment service: creation, cancellation, and the chain checks that move a payment through
 * the states of DESIGN §3. Rules that matter for money:
 * - a state change writes the payment, its event and the webhook outbox row in ONE transaction,
 *   guarded by the payment's sequence (optimistic concurrency), so no change is lost or doubled;
 * - a signature settles at most one payment, ever (settlements table primary key);
 * - an RPC failure or timeout never changes a state: the check is simply retried later;
 * - checks of one payment coalesce: at most one in flight, and at most one per minCheckIntervalMs,
 *   whoever asks (watcher, browser verify, merchant verify).
 */
import { Keypair } from '@solana/web3.js';
import { parseAmount } from '../../core/amount.js';
import { encodeTransferRequestUrl } from '../../core/solana-pay.js';
import type { CreatedPayment, EventType } from '../../core/payment.js';
import type { TransferCandidate } from '../chain/types.js';
import type { GatewayConfig } from '../config.js';
import { ApiError } from '../http/problem.js';
import { TokenBucketLimiter } from '../http/rate-limit.js';
import { newEventId, newPaymentId } from '../ids.js';
import { generatePaymentToken, hashCredential } from '../keys.js';
import type { MerchantRow, PaymentRow, Store, TransitionInput } from '../store/store.js';
import type { ChainPort } from './chain-port.js';
import { CurrencyRegistry } from './currencies.js';
import { lateCheckDelay } from './late-watch.js';
import { validateCreate } from './validate.js';
import { eventBody, toPayment } from './view.js';

export interface PaymentServiceOptions {
  store: Store;
  chain: ChainPort;
  config: GatewayConfig;
  /** Called after an event (and maybe an outbox row) is written for this payment: wakes the webhook worker, drops cached views. */
  onEvent?: (paymentId: string) => void;
  /** The fast detection path (../detection): told which payments are pending, it calls hint(). */
  detection?: PendingPaymentWatch;
  now?: () => number;
}

/** What the service tells the recipient watch. */
export interface PendingPaymentWatch {
  watch(payment: { id: string; reference: string; recipient: string; mint: string | null; createdAt: string }): void;
  unwatch(paymentId: string): void;
}

const noop = () => {};

export class PaymentService {
  readonly currencies: CurrencyRegistry;
  private readonly store: Store;
  private readonly chain: ChainPort;
  private readonly config: GatewayConfig;
  private readonly onEvent: (paymentId: string) => void;
  private readonly now: () => number;
  private readonly inFlight = new Map<string, Promise<PaymentRow | undefined>>();
  private readonly lastCheckAt = new Map<string, number>();
  private readonly tokenAccounts = new Set<string>();
  private readonly detection: PendingPaymentWatch | undefined;
  /** Immediate checks asked for by the recipient watch, per payment (spam to a reference must not multiply its RPC cost). */
  private readonly hints: TokenBucketLimiter;
  /** Payments hinted while a check was running: that check may have listed before the transfer landed. */
  private readonly recheck = new Set<string>();
  /** Hinted payments whose next claim skips the per-payment interval. */
  private readonly urgent = new Set<string>();
  /** Chain checks started (for tests and benchmarks). */
  checksStarted = 0;

  constructor(opts: PaymentServiceOptions) {
    this.store = opts.store;
    this.chain = opts.chain;
    this.config = opts.config;
    this.onEvent = opts.onEvent ?? (() => {});
    this.now = opts.now ?? Date.now;
    this.detection = opts.detection;
    const { hintBurst, hintRatePerSecond } = opts.config.detection;
    this.hints = new TokenBucketLimiter({ burst: hintBurst, ratePerSecond: hintRatePerSecond }, () => this.now());
    this.currencies = new CurrencyRegistry(opts.config.currencies, opts.chain);
  }

  // ---- create and cancel

  /**
   * With an Idempotency-Key, its stored answer is written in the same transaction as the payment, so
   * an instance killed right after the insert cannot leave a payment whose key a retry could reuse.
   */
  async create(merchant: MerchantRow, livemode: boolean, body: unknown, idempotencyKey?: string): Promise<CreatedPayment> {
    const input = validateCreate(body);
    if (!this.currencies.isKnown(input.currency)) {
      throw new ApiError(
        400,
        'currency_unsupported',
        `This gateway does not accept ${JSON.stringify(input.currency.slice(0, 16))}. Accepted: ${this.currencies.symbols().join(', ')}.`,
        'currency',
      );
    }
    const currency = await this.rpc(() => this.currencies.resolve(input.currency));
    if (!currency) throw new ApiError(400, 'currency_unsupported', 'Unknown currency.', 'currency');
    const amountBase = parseAmount(input.amount, currency.decimals, 'amount');
    if (amountBase <= 0n) throw new ApiError(400, 'amount_not_positive', 'amount must be greater than zero.', 'amount');

    if (currency.mint) {
      const key = `${merchant.recipient}:${currency.mint}`;
      if (!this.tokenAccounts.has(key)) {
        const exists = await this.rpc(() => this.chain.recipientTokenAccountExists(merchant.recipient, currency.mint!));
        if (!exists) {
          throw new ApiError(
            400,
            'recipient_token_account_missing',
            `The merchant wallet ${merchant.recipient} has no ${currency.symbol} token account (mint ${currency.mint}), so it cannot receive ${currency.symbol}. Create the associated token account first.`,
            'currency',
          );
        }
        this.tokenAccounts.add(key); // token accounts can be closed, but rarely; a payment then simply is not paid
      }
    }

    const now = this.now();
    const reference = Keypair.generate().publicKey.toBase58();
    const label = input.label ?? merchant.name;
    const url = encodeTransferRequestUrl(
      {
        recipient: merchant.recipient,
        amount: input.amount,
        ...(currency.mint ? { splToken: currency.mint } : {}),
        references: [reference],
        label,
        ...(input.message ? { message: input.message } : {}),
        ...(input.memo ? { memo: input.memo } : {}),
      },
      { decimals: currency.decimals },
    );
    const createdAt = new Date(now).toISOString();
    const row: PaymentRow = {
      id: newPaymentId(),
      merchant_id: merchant.id,
      livemode: livemode ? 1 : 0,
      status: 'pending',
      amount: input.amount,
      amount_base: amountBase.toString(),
      currency: currency.symbol,
      mint: currency.mint,
      decimals: currency.decimals,
      recipient: merchant.recipient,
      reference,
      url,
      label,
      message: input.message,
      memo: input.memo,
      order_id: input.orderId,
      metadata: JSON.stringify(input.metadata),
      amount_received_base: null,
      signature: null,
      payer: null,
      paid_late: 0,
      overpaid: 0,
      created_at: createdAt,
      expires_at: new Date(now + (input.expiresIn ?? merchant.default_expires_in) * 1000).toISOString(),
      confirmed_at: null,
      cancelled_at: null,
      sequence: 1,
      next_check_at: new Date(now + this.config.watcher.minCheckIntervalMs).toISOString(),
      checks: 0,
    };
    const token = generatePaymentToken();
    const eventId = newEventId();
    const created: CreatedPayment = { ...toPayment(row), paymentToken: token };
    await this.store.insertPayment(
      row,
      hashCredential(token),
      { id: eventId, type: 'payment.created', createdAt, body: eventBody(eventId, 'payment.created', createdAt, row) },
      idempotencyKey === undefined
        ? undefined
        : { merchantId: merchant.id, livemode, key: idempotencyKey, statusCode: 201, body: JSON.stringify(created) },
    );
    this.onEvent(row.id);
    this.watchIfPending(row);
    return created;
  }

  async cancel(row: PaymentRow): Promise<PaymentRow> {
    if (row.status !== 'pending') {
      throw new ApiError(409, 'payment_not_cancellable', `Only a pending payment can be cancelled; this one is ${row.status}.`);
    }
    const at = new Date(this.now()).toISOString();
    const result = await this.transition(row, 'payment.cancelled', {
      status: 'cancelled',
      cancelled_at: at,
      next_check_at: new Date(this.now() + this.config.watcher.lateIntervalMs).toISOString(),
    });
    if (result !== 'ok') {
      const fresh = await this.store.getPayment(row.id);
      throw new ApiError(409, 'payment_not_cancellable', `The payment changed meanwhile; it is now ${fresh?.status}.`);
    }
    return (await this.store.getPayment(row.id))!;
  }

  // ---- chain checks

  /**
   * Checks the chain for this payment unless a check is running (then waits for it) or one ran
   * less than minCheckIntervalMs ago (then answers from the database). Returns the fresh row.
   */
  async check(paymentId: string, opts: { claimed?: boolean } = {}): Promise<PaymentRow | undefined> {
    const running = this.inFlight.get(paymentId);
    if (running && !opts.claimed) return running;
    const last = this.lastCheckAt.get(paymentId);
    if (!opts.claimed && last !== undefined && this.now() - last < this.config.watcher.minCheckIntervalMs) {
      return this.store.getPayment(paymentId);
    }
    this.lastCheckAt.set(paymentId, this.now());
    // The watcher's rows come claimed (leased) already; anyone else claims in the database first.
    // A claimed check always runs, after whatever is in flight (e.g. a verify that found the lease
    // taken and is only reading the row): only running it releases the lease.
    const after = running ? running.then(noop, noop) : Promise.resolve();
    const p: Promise<PaymentRow | undefined> = (
      opts.claimed ? after.then(() => this.runCheck(paymentId)) : this.claimAndRun(paymentId)
    ).finally(() => {
      if (this.inFlight.get(paymentId) === p) this.inFlight.delete(paymentId);
      if (this.recheck.delete(paymentId)) {
        this.lastCheckAt.delete(paymentId);
        this.urgent.add(paymentId);
        this.requestCheck(paymentId);
      }
    });
    this.inFlight.set(paymentId, p);
    return p;
  }

  /**
   * The recipient watch saw a new transaction carrying this payment's reference: check now, past the
   * per-payment interval, within a small per-payment budget (hintBurst, then hintRatePerSecond). The
   * check itself decides, exactly as any other check; a hint only moves it earlier.
   */
  hint(paymentId: string): void {
    if (!this.hints.take(paymentId).allowed) return;
    if (this.inFlight.has(paymentId)) {
      this.recheck.add(paymentId);
      return;
    }
    this.lastCheckAt.delete(paymentId);
    this.urgent.add(paymentId);
    this.requestCheck(paymentId);
  }

  private watchIfPending(row: PaymentRow): void {
    if (!this.detection) return;
    if (row.status === 'pending') {
      this.detection.watch({ id: row.id, reference: row.reference, recipient: row.recipient, mint: row.mint, createdAt: row.created_at });
    } else {
      this.detection.unwatch(row.id);
    }
  }

  /**
   * Starts a check if one is due (same coalescing as check) without waiting for it: the browser's
   * verify answers from the database at once and sees the result on its next poll.
   */
  requestCheck(paymentId: string): void {
    if (this.inFlight.has(paymentId)) return;
    const last = this.lastCheckAt.get(paymentId);
    if (last !== undefined && this.now() - last < this.config.watcher.minCheckIntervalMs) return;
    this.check(paymentId).catch((error: unknown) => {
      this.config.log(`[gateway] check of ${paymentId} failed: ${(error as Error)?.message ?? String(error)}`);
    });
  }

  /**
   * The check lease in the database is what coalesces checks across instances: only the instance
   * that claims it checks; the others answer from the database. An urgent (hinted) check skips the
   * interval but still respects a running check's lease.
   */
  private async claimAndRun(paymentId: string): Promise<PaymentRow | undefined> {
    const now = this.now();
    const urgent = this.urgent.delete(paymentId);
    const claimed = await this.store.claimCheck(
      paymentId,
      new Date(now).toISOString(),
      new Date(urgent ? now : now - this.config.watcher.minCheckIntervalMs).toISOString(),
      new Date(now + this.config.watcher.checkLeaseMs).toISOString(),
    );
    if (!claimed) return this.store.getPayment(paymentId);
    return this.runCheck(paymentId);
  }

  private async runCheck(paymentId: string): Promise<PaymentRow | undefined> {
    const startedAt = this.now();
    const row = await this.store.getPayment(paymentId);
    if (!row) return undefined;
    if (!this.needsChecking(row)) {
      this.watchIfPending(row);
      if (row.next_check_at !== null || row.checking_until) await this.store.scheduleCheck(row.id, null, row.checks);
      this.lastCheckAt.delete(paymentId);
      return row;
    }
    this.checksStarted++;
    let candidates: TransferCandidate[] | null = null;
    try {
      candidates = await this.chain.scan({
        reference: row.reference,
        recipient: row.recipient,
        mint: row.mint,
        amount: BigInt(row.amount_base),
        memo: row.memo,
      });
    } catch (error) {
      // RPC trouble never changes a state; only time-driven expiry still applies below.
      this.config.log(`[gateway] chain check of ${row.id} failed: ${(error as Error)?.message ?? String(error)}`);
    }
    let current = row;
    // Most checks find nothing new: no writes then, and no re-reads.
    if (candidates && candidates.length > 0) current = (await this.apply(row, candidates)) ?? current;
    if (current.status === 'pending' && this.now() >= Date.parse(current.expires_at)) {
      await this.transition(current, 'payment.expired', { status: 'expired' });
      current = (await this.store.getPayment(paymentId)) ?? current;
    }
    const next = this.nextCheckAt(current, candidates, startedAt);
    await this.store.scheduleCheck(current.id, next, current.checks + 1);
    this.watchIfPending(current);
    return { ...current, next_check_at: next, checks: current.checks + 1 };
  }

  private needsChecking(row: PaymentRow): boolean {
    if (row.status === 'pending' || row.status === 'processing') return true;
    if (row.status === 'confirmed') return false;
    return this.now() < this.lateWatchEnd(row);
  }

  /** When the late watch began: the cancellation, or the expiry. */
  private lateWatchStart(row: PaymentRow): number {
    return Date.parse(row.status === 'cancelled' && row.cancelled_at ? row.cancelled_at : row.expires_at);
  }

  private lateWatchEnd(row: PaymentRow): number {
    return this.lateWatchStart(row) + this.config.lateWatchMs;
  }

  /** When to look again: often while young or awaiting commitment, slower as the payment ages. */
  private nextCheckAt(row: PaymentRow, candidates: TransferCandidate[] | null, checkStartedAt: number): string | null {
    // Counted from the start of the check, so the interval between checks is the delay itself.
    const now = checkStartedAt;
    const { minCheckIntervalMs, lateIntervalMs } = this.config.watcher;
    if (row.status === 'confirmed') return null;
    let delay: number;
    if (row.status === 'expired' || row.status === 'cancelled') {
      if (now >= this.lateWatchEnd(row)) return null;
      const awaiting = candidates?.some((c) => c.verdict === 'paid' && !c.reachedCommitment);
      delay = awaiting ? minCheckIntervalMs : lateCheckDelay(now - this.lateWatchStart(row), lateIntervalMs);
    } else if (row.status === 'processing') {
      delay = minCheckIntervalMs;
    } else {
      const age = now - Date.parse(row.created_at);
      delay = age < 60_000 ? 1_000 : age < 5 * 60_000 ? 3_000 : 10_000;
      delay = Math.max(delay, minCheckIntervalMs);
      // Up to 20 % later at random: payments created together (a sale, a batch) would otherwise fall
      // due in the same tick forever, and their checks would arrive as one burst every interval.
      delay += Math.floor(Math.random() * delay * 0.2);
      // Never sleep past the expiry: the final check and the move to expired happen on time.
      delay = Math.min(delay, Math.max(0, Date.parse(row.expires_at) - now) + 10);
    }
    return new Date(now + delay).toISOString();
  }

  /** Applies what the chain shows, oldest transfer first. Returns the row after the last change. */
  private async apply(row: PaymentRow, candidates: TransferCandidate[]): Promise<PaymentRow | undefined> {
    let current = row;
    for (const c of candidates) {
      if (current.status === 'confirmed') break;
      if (c.verdict === 'paid') {
        const done = await this.applyPaid(current, c);
        current = (await this.store.getPayment(row.id)) ?? current;
        if (done) break;
      } else if (c.verdict === 'underpaid' && c.reachedCommitment && current.status === 'pending') {
        const result = await this.transition(
          current,
          'payment.underpaid',
          { amount_received_base: c.amountReceived.toString(), payer: c.payer },
          { underpayment: { signature: c.signature, amountBase: c.amountReceived.toString() } },
        );
        if (result === 'ok') current = (await this.store.getPayment(row.id)) ?? current;
      }
    }
    return current;
  }

  /** True when this candidate decided the payment (settled or is being settled by it). */
  private async applyPaid(row: PaymentRow, c: TransferCandidate): Promise<boolean> {
    const received = c.amountReceived.toString();
    if (row.status === 'processing') {
      if (row.signature !== c.signature) return false;
      if (!c.reachedCommitment) return true;
      await this.transition(row, 'payment.confirmed', { status: 'confirmed', confirmed_at: this.iso(), next_check_at: null });
      return true;
    }
    const settled = {
      signature: c.signature,
      payer: c.payer,
      amount_received_base: received,
      overpaid: c.overpaid ? 1 : 0,
    } as const;
    if (row.status === 'pending') {
      const result = c.reachedCommitment
        ? await this.transition(row, 'payment.confirmed', { ...settled, status: 'confirmed', confirmed_at: this.iso(), next_check_at: null }, { settleSignature: c.signature })
        : await this.transition(row, 'payment.processing', { ...settled, status: 'processing' }, { settleSignature: c.signature });
      return result !== 'signature_taken';
    }
    // expired or cancelled: only a transfer at the required commitment settles it, late.
    if (!c.reachedCommitment) return true;
    const inTime = row.status === 'expired' && c.blockTime !== null && c.blockTime * 1000 <= Date.parse(row.expires_at);
    const result = await this.transition(
      row,
      'payment.confirmed',
      { ...settled, status: 'confirmed', confirmed_at: this.iso(), paid_late: inTime ? 0 : 1, next_check_at: null },
      { settleSignature: c.signature },
    );
    return result !== 'signature_taken';
  }

  private async transition(
    row: PaymentRow,
    type: EventType,
    patch: TransitionInput['patch'],
    extra: Pick<TransitionInput, 'settleSignature' | 'underpayment'> = {},
  ) {
    const at = this.iso();
    const next: PaymentRow = { ...row, ...patch, sequence: row.sequence + 1 };
    const eventId = newEventId();
    const result = await this.store.transition({
      paymentId: row.id,
      expectedSequence: row.sequence,
      patch,
      ...extra,
      event: { id: eventId, type, createdAt: at, body: eventBody(eventId, type, at, next) },
    });
    if (result === 'ok') this.onEvent(row.id);
    if (result === 'ok' && next.status === 'confirmed') this.lastCheckAt.delete(row.id);
    return result;
  }

  /** Runs a chain call for a request; an RPC failure becomes 503 rpc_unavailable. */
  private async rpc<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      this.config.log(`[gateway] RPC call failed: ${(error as Error)?.message ?? String(error)}`);
      throw new ApiError(503, 'rpc_unavailable', 'The Solana RPC node could not be reached. Retry shortly.');
    }
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
}
