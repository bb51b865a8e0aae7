/**
 * The payment as the API shows it (DESIGN §3). Shared by the gateway (which produces it), the server
 * SDK (which returns it to merchants) and the element (which shows the public view).
 * JSON is camelCase; amounts are decimal strings in token units; times are ISO 8601 UTC strings.
 */

export const PAYMENT_STATUSES = ['pending', 'processing', 'confirmed', 'expired', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Statuses after which the browser stops polling. `expired` and `cancelled` can still turn `confirmed` late. */
export const FINAL_STATUSES: readonly PaymentStatus[] = ['confirmed', 'expired', 'cancelled'];

export function isFinalStatus(status: PaymentStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** The full payment, as the merchant sees it on /api/v1. */
export interface Payment {
  object: 'payment';
  id: string;
  status: PaymentStatus;
  amount: string;
  currency: string;
  /** Token mint address; null for SOL. */
  mint: string | null;
  /** The merchant's wallet (owner), never a token account. */
  recipient: string;
  /** Base58 public key, unique per payment (Solana Pay reference). */
  reference: string;
  /** Solana Pay transfer request URL (solana:...). */
  url: string;
  label: string | null;
  message: string | null;
  memo: string | null;
  orderId: string | null;
  metadata: Record<string, string>;
  amountReceived: string | null;
  signature: string | null;
  payer: string | null;
  paidLate: boolean;
  overpaid: boolean;
  createdAt: string;
  expiresAt: string;
  confirmedAt: string | null;
  cancelledAt: string | null;
  livemode: boolean;
  /** Rises with every change of this payment, so webhook receivers can drop stale events. */
  sequence: number;
}

/** What the public verify endpoint returns: no metadata, no orderId (DESIGN §4). */
export type PublicPayment = Omit<Payment, 'metadata' | 'orderId'> & {
  merchant: { name: string; logoUrl: string | null };
  /** Server time when the answer was made, so the browser can correct its countdown for clock skew. */
  serverTime: string;
};

/** A created payment also carries the token the browser uses for public verify. Shown once. */
export type CreatedPayment = Payment & { paymentToken: string };

/** Body of POST /api/v1/payments. */
export interface CreatePaymentParams {
  amount: string;
  currency: string;
  orderId?: string;
  label?: string;
  message?: string;
  memo?: string;
  metadata?: Record<string, string>;
  /** Seconds until the payment expires (default 900). */
  expiresIn?: number;
}

export const EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.confirmed',
  'payment.underpaid',
  'payment.expired',
  'payment.cancelled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Webhook body and the items of GET /api/v1/events. */
export interface PaymentEvent {
  object: 'event';
  id: string;
  type: EventType;
  /** ISO 8601 time the event happened. */
  timestamp: string;
  livemode: boolean;
  data: { payment: Payment };
}

export interface MerchantCurrency {
  symbol: string;
  /** null for SOL. */
  mint: string | null;
  decimals: number;
}

/** GET /api/v1/merchant */
export interface Merchant {
  object: 'merchant';
  id: string;
  name: string;
  logoUrl: string | null;
  recipient: string;
  currencies: MerchantCurrency[];
  /** Seconds. */
  defaultExpiresIn: number;
  livemode: boolean;
}

/** A page of a list endpoint. */
export interface ListPage<T> {
  object: 'list';
  data: T[];
  hasMore: boolean;
}

/** RFC 9457 problem details as every error of the API is sent. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  param?: string;
  requestId: string;
}

/** What a merchant backend's session endpoint answers to the element's session-url POST. */
export interface CheckoutSession {
  paymentId: string;
  paymentToken: string;
  baseUrl?: string;
  /** The public view, when the backend has it; the element fetches it itself otherwise. */
  payment?: PublicPayment;
}

export const PAYMENT_TOKEN_HEADER = 'x-service-payment-token';
