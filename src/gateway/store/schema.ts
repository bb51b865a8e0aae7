/**
 * Table shapes as Kysely sees them. Portable column types only (text, integer), so the same
 * queries run on SQLite and PostgreSQL: times are ISO 8601 UTC strings (they sort as text),
 * booleans are 0/1 integers, base-unit amounts are decimal text (they may exceed 2^53).
 */
import type { Generated } from 'kysely';

export interface MerchantsTable {
  id: string;
  name: string;
  logo_url: string | null;
  recipient: string;
  webhook_url: string | null;
  /** 1 after the endpoint answered 410 Gone. */
  webhook_disabled: number;
  mode: 'test' | 'live';
  default_expires_in: number;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  kind: 'secret' | 'publishable';
  mode: 'test' | 'live';
  hash: string;
  /** Non-secret start of the key, for listing. */
  prefix: string;
  revoked_at: string | null;
  created_at: string;
}

export interface WebhookSecretsTable {
  id: Generated<number>;
  merchant_id: string;
  /** The secret itself: HMAC signing needs it (unlike API keys, it cannot be hashed). */
  secret: string;
  /** null for the current secret; a time for a rotated-out secret that still signs until then. */
  expires_at: string | null;
  created_at: string;
}

export interface PaymentsTable {
  id: string;
  merchant_id: string;
  livemode: number;
  status: 'pending' | 'processing' | 'confirmed' | 'expired' | 'cancelled';
  amount: string;
  amount_base: string;
  currency: string;
  mint: string | null;
  decimals: number;
  recipient: string;
  reference: string;
  url: string;
  label: string | null;
  message: string | null;
  memo: string | null;
  order_id: string | null;
  metadata: string;
  amount_received_base: string | null;
  signature: string | null;
  payer: string | null;
  paid_late: number;
  overpaid: number;
  created_at: string;
  expires_at: string;
  confirmed_at: string | null;
  cancelled_at: string | null;
  sequence: number;
  /** When the watcher should next look at the chain for this payment. null = never again. */
  next_check_at: string | null;
  checks: number;
  /** A chain check of this payment is leased to one instance until then (optional: absent on insert). */
  checking_until?: string | null;
  /** When the last chain check started: no instance starts another within minCheckIntervalMs. */
  checked_at?: string | null;
}

export interface PaymentTokensTable {
  hash: string;
  payment_id: string;
  created_at: string;
}

/** One row per signature that settled a payment. The primary key makes "one signature, one payment, ever" hold. */
export interface SettlementsTable {
  signature: string;
  payment_id: string;
  created_at: string;
}

/** Short transfers already reported, so payment.underpaid fires once per signature. */
export interface UnderpaymentsTable {
  payment_id: string;
  signature: string;
  amount_base: string;
  created_at: string;
}

export interface IdempotencyTable {
  merchant_id: string;
  livemode: number;
  key: string;
  request_hash: string;
  /** null while the first request is still running. */
  status_code: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface EventsTable {
  id: string;
  merchant_id: string;
  livemode: number;
  type: string;
  payment_id: string;
  /** The full event JSON as delivered. */
  body: string;
  created_at: string;
}

export interface WebhookOutboxTable {
  id: string;
  event_id: string;
  merchant_id: string;
  status: 'pending' | 'delivered' | 'failed' | 'disabled';
  attempts: number;
  next_attempt_at: string;
  /** A worker holds the row until then; after it, another worker may retry (crash safety). */
  lease_until: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** Shared token buckets (PostgreSQL, several instances): one row per limiter and key. */
export interface RateLimitsTable {
  key: string;
  tokens: number;
  /** Milliseconds since the epoch, database clock. */
  updated_ms: number | string;
  /** 1 when the last take was allowed. */
  allowed: number;
}

export interface Database {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
  webhook_secrets: WebhookSecretsTable;
  payments: PaymentsTable;
  payment_tokens: PaymentTokensTable;
  settlements: SettlementsTable;
  underpayments: UnderpaymentsTable;
  idempotency_keys: IdempotencyTable;
  events: EventsTable;
  webhook_outbox: WebhookOutboxTable;
  rate_limits: RateLimitsTable;
}
