/**
 * svc-checkout/server: what a merchant's Node backend uses. Never imports element code.
 *   import { SvcClient, webhooks, NotFoundError } from 'svc-checkout/server';
 */
export { SvcClient, type SvcClientOptions, type ListPaymentsParams, type ListEventsParams, type EventRedelivery } from './client.js';
export type { RequestOptions } from './transport.js';
export type { ListPromise } from './pagination.js';
export * from './errors.js';
export * from './webhooks/index.js';
export { VERSION } from './version.js';
export type {
  Payment,
  PublicPayment,
  CreatedPayment,
  CreatePaymentParams,
  PaymentEvent,
  PaymentStatus,
  EventType,
  Merchant,
  MerchantCurrency,
  ListPage,
  Problem,
  CheckoutSession,
} from '../core/payment.js';
export { PAYMENT_STATUSES, EVENT_TYPES, PAYMENT_TOKEN_HEADER } from '../core/payment.js';
