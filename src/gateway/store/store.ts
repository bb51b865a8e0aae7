/**
 * The one storage interface the gateway uses. SQLite implements it today (sqlite.ts); PostgreSQL
 * can implement it with the same Kysely queries (kysely-store.ts) and its own dialect.
 * Every state change of a payment goes through `transition`, which writes the payment, its event
 * and the webhook outbox row in one database transaction.
 */
import type {
  ApiKeysTable,
  EventsTable,
  IdempotencyTable,
  MerchantsTable,
  PaymentsTable,
  WebhookOutboxTable,
} from './schema.js';
import type { RateLimitConfig } from '../config.js';
import type { RateLimiter } from '../http/rate-limit.js';

export type MerchantRow = MerchantsTable;
export type ApiKeyRow = ApiKeysTable;
export type PaymentRow = PaymentsTable;
export type EventRow = EventsTable;
export type OutboxRow = WebhookOutboxTable;
export type IdempotencyRow = IdempotencyTable;

export interface IdempotencyCompletion {
  merchantId: string;
  livemode: boolean;
  key: string;
  statusCode: number;
  body: string;
}

export interface NewEvent {
  id: string;
  type: string;
  body: string;
  createdAt: string;
}

export interface PageQuery {
  limit: number;
  startingAfter?: string;
}

export interface PaymentFilter extends PageQuery {
  status?: PaymentRow['status'];
  orderId?: string;
}

export interface TransitionInput {
  paymentId: string;
  /** The sequence the caller read; the update happens only if nobody changed the payment since. */
  expectedSequence: number;
  patch: Partial<Omit<PaymentRow, 'id' | 'merchant_id' | 'sequence'>>;
  /** Claims this signature for the payment (fails with 'signature_taken' when another payment has it). */
  settleSignature?: string;
  /** Records a short transfer; when already recorded the whole transition is skipped ('duplicate'). */
  underpayment?: { signature: string; amountBase: string };
  /** Event written with the change (its body must carry the new sequence); an outbox row follows if the merchant has a webhook. */
  event?: NewEvent;
}

export type TransitionResult = 'ok' | 'stale' | 'signature_taken' | 'duplicate';

export interface ClaimedDelivery {
  outbox: OutboxRow;
  eventBody: string;
  webhookUrl: string | null;
  webhookDisabled: boolean;
}

export type MerchantPatch = Partial<Pick<MerchantRow, 'name' | 'logo_url' | 'webhook_url' | 'webhook_disabled'>>;

export interface MetricsSnapshot {
  /** Payments the watcher still checks (next check set), by status. */
  watched: { status: PaymentRow['status']; count: number }[];
  /** Outbox rows not yet delivered, failed or disabled. */
  outboxPending: number;
  /** next_attempt_at of the oldest pending outbox row that is already due, or null. */
  outboxOldestDueAt: string | null;
}

export interface Store {
  /** 'postgres' when several instances may share the database. */
  readonly engine: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** A rate limiter shared by every instance on this database, or undefined (the caller keeps one in memory). */
  sharedRateLimiter?(name: string, limit: RateLimitConfig): RateLimiter;

  // merchants and credentials
  insertMerchant(merchant: MerchantRow, keys: ApiKeyRow[], webhookSecret: string): Promise<void>;
  getMerchant(id: string): Promise<MerchantRow | undefined>;
  listMerchants(): Promise<MerchantRow[]>;
  findApiKey(hash: string): Promise<{ key: ApiKeyRow; merchant: MerchantRow } | undefined>;
  listApiKeys(merchantId: string): Promise<ApiKeyRow[]>;
  /** Revokes every active key of this kind and mode and stores the new one, atomically. */
  replaceApiKey(key: ApiKeyRow, revokedAt: string): Promise<void>;
  /** Makes `secret` current; the previous current secret keeps signing until `previousExpiresAt`. */
  rotateWebhookSecret(merchantId: string, secret: string, now: string, previousExpiresAt: string): Promise<void>;
  /** Secrets that sign at `now`: current first, then rotated ones not yet expired. */
  webhookSecrets(merchantId: string, now: string): Promise<string[]>;
  setWebhook(merchantId: string, url: string | null, disabled: boolean): Promise<void>;
  /** Changes the given profile fields (merchant update); false when there is no such merchant. */
  updateMerchant(merchantId: string, patch: MerchantPatch): Promise<boolean>;

  // payments
  /** With `idempotency`, also stores that key's answer in the same transaction (see PaymentService.create). */
  insertPayment(payment: PaymentRow, tokenHash: string, event: NewEvent, idempotency?: IdempotencyCompletion): Promise<void>;
  getPayment(id: string): Promise<PaymentRow | undefined>;
  getPaymentByToken(tokenHash: string): Promise<PaymentRow | undefined>;
  listPayments(merchantId: string, livemode: boolean, filter: PaymentFilter): Promise<PaymentRow[]>;
  transition(input: TransitionInput): Promise<TransitionResult>;
  /** Sets the next check and ends this payment's check lease. */
  scheduleCheck(paymentId: string, nextCheckAt: string | null, checks: number): Promise<void>;
  /**
   * Claims a chain check of this payment until `leaseUntil`: false when another check holds a live
   * lease or one started after `notCheckedSince` (coalescing across every instance on the database).
   */
  claimCheck(paymentId: string, now: string, notCheckedSince: string, leaseUntil: string): Promise<boolean>;
  /** Claims (leases) up to `limit` payments whose check is due, oldest due first; on PostgreSQL with FOR UPDATE SKIP LOCKED. */
  claimDueChecks(now: string, notCheckedSince: string, leaseUntil: string, limit: number): Promise<PaymentRow[]>;

  // idempotency
  getIdempotency(merchantId: string, livemode: boolean, key: string): Promise<IdempotencyRow | undefined>;
  /** Inserts an in-progress record; false when the key is already taken. */
  beginIdempotency(row: IdempotencyRow): Promise<boolean>;
  /**
   * Takes over a key whose request never finished (its instance died): succeeds only if the record is
   * still unfinished and still the one created at `staleCreatedAt`, so two retries cannot both take it.
   */
  takeOverIdempotency(row: IdempotencyRow, staleCreatedAt: string): Promise<boolean>;
  completeIdempotency(merchantId: string, livemode: boolean, key: string, statusCode: number, body: string): Promise<void>;
  deleteIdempotency(merchantId: string, livemode: boolean, key: string): Promise<void>;
  purgeIdempotency(now: string): Promise<number>;

  // events and webhooks
  getEvent(id: string): Promise<EventRow | undefined>;
  listEvents(merchantId: string, livemode: boolean, page: PageQuery): Promise<EventRow[]>;
  /** Queues a new delivery of an existing event; false when the merchant has no webhook URL. */
  enqueueDelivery(eventId: string, now: string): Promise<boolean>;
  /** What GET /metrics reports from the database: watched payments by status, the webhook backlog. */
  metricsSnapshot(now: string): Promise<MetricsSnapshot>;
  claimDeliveries(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  finishDelivery(
    id: string,
    result:
      | { kind: 'delivered'; status: number; at: string }
      | { kind: 'retry'; status: number | null; error: string; nextAttemptAt: string }
      | { kind: 'failed'; status: number | null; error: string }
      | { kind: 'disabled'; status: number },
  ): Promise<void>;
}
