/**
 * Entry of the browser bundle: defines <svc-checkout>. Registration is guarded, so a page that loads
 * the script twice gets a warning, not an exception.
 */
import { SvcCheckout } from './svc-checkout.js';
import { defineOnce } from './define.js';

export { SvcCheckout };
export type { SvcEventMap, SvcSessionDetail, SvcStatusDetail, SvcPaymentDetail, SvcErrorDetail, SvcCloseDetail } from './events.js';
export type { PublicPayment, PaymentStatus, CheckoutSession } from '../core/payment.js';
defineOnce('svc-checkout', SvcCheckout);
