import type { PaymentStatus, PublicPayment } from '../core/payment.js';

/** detail of `svc-session`: a session was loaded (the payment is known and the token is held privately). */
export interface SvcSessionDetail {
  paymentId: string;
  payment: PublicPayment;
}
/** detail of `svc-status`: the payment status changed. */
export interface SvcStatusDetail {
  status: PaymentStatus;
  previous: PaymentStatus | null;
  payment: PublicPayment;
}
/** detail of `svc-confirmed` (fired once per element and payment) and `svc-expired`. */
export interface SvcPaymentDetail {
  payment: PublicPayment;
}
/** detail of `svc-error`: a stable code and a human message. */
export interface SvcErrorDetail {
  code: string;
  message: string;
  status?: number;
}
/** detail of `svc-close`: the modal dialog was closed. */
export interface SvcCloseDetail {
  status: PaymentStatus | null;
}

export interface SvcEventMap {
  'svc-session': CustomEvent<SvcSessionDetail>;
  'svc-status': CustomEvent<SvcStatusDetail>;
  'svc-confirmed': CustomEvent<SvcPaymentDetail>;
  'svc-expired': CustomEvent<SvcPaymentDetail>;
  'svc-error': CustomEvent<SvcErrorDetail>;
  'svc-close': CustomEvent<SvcCloseDetail>;
}

type DetailOf<K extends keyof SvcEventMap> = SvcEventMap[K] extends CustomEvent<infer D> ? D : never;

/** Events bubble and cross shadow boundaries so a page can listen on document. */
export function emit<K extends keyof SvcEventMap>(target: EventTarget, type: K, detail: DetailOf<K>): void {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalEventHandlersEventMap extends SvcEventMap {}
}
