/** client.payments: /api/v1/payments and the public view. */
import type { CreatePaymentParams, CreatedPayment, ListPage, Payment, PaymentStatus, PublicPayment } from '../../core/payment.js';
import { PAYMENT_TOKEN_HEADER } from '../../core/payment.js';
import { ConflictError } from '../errors.js';
import { iterateAll, listPromise, type ListPromise, type PageParams } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';
import { pathId } from './path.js';

export interface ListPaymentsParams extends PageParams {
  status?: PaymentStatus;
  orderId?: string;
}

export class Payments {
  constructor(private readonly http: Transport) {}

  /** POST /api/v1/payments. The answer carries the `paymentToken` to hand to the browser (shown once). */
  create(params: CreatePaymentParams, options?: RequestOptions): Promise<CreatedPayment> {
    return this.http.request({ method: 'POST', path: '/api/v1/payments', body: params }, options);
  }

  async retrieve(id: string, options?: RequestOptions): Promise<Payment> {
    return this.http.request({ method: 'GET', path: `/api/v1/payments/${pathId(id, 'payment')}` }, options);
  }

  /** One page, newest first; also `for await`-able over every page. */
  list(params: ListPaymentsParams = {}, options?: RequestOptions): ListPromise<Payment> {
    return listPromise(params, (p) => this.page(p, options));
  }

  /** Every payment matching `params`, page after page. */
  listAll(params: ListPaymentsParams = {}, options?: RequestOptions): AsyncIterable<Payment> {
    return { [Symbol.asyncIterator]: () => iterateAll(this.page(params, options), params, (p) => this.page(p, options)) };
  }

  /**
   * Cancels a pending payment; a ConflictError when it is no longer pending. The gateway does not
   * replay cancels by Idempotency-Key, so when a retried cancel meets a conflict, the first
   * attempt may have worked with its answer lost: the payment is read, and returned if cancelled.
   */
  async cancel(id: string, options?: RequestOptions): Promise<Payment> {
    let retried = false;
    const path = `/api/v1/payments/${pathId(id, 'payment')}/cancel`;
    try {
      return await this.http.request<Payment>({ method: 'POST', path, onRetry: () => (retried = true) }, options);
    } catch (error) {
      if (!(retried && error instanceof ConflictError)) throw error;
      const payment = await this.retrieve(id, options);
      if (payment.status === 'cancelled') return payment;
      throw error;
    }
  }

  /** Asks the gateway to check the chain now, and returns the payment as it then stands. */
  async verify(id: string, options?: RequestOptions): Promise<Payment> {
    return this.http.request({ method: 'POST', path: `/api/v1/payments/${pathId(id, 'payment')}/verify` }, options);
  }

  /**
   * The public view the browser sees (no metadata, no orderId), fetched with the payment token
   * rather than the secret key. Used by the session handler.
   */
  async retrievePublic(id: string, paymentToken: string, options?: RequestOptions): Promise<PublicPayment> {
    return this.http.request(
      {
        method: 'POST',
        path: `/api/public/payments/${pathId(id, 'payment')}/verify`,
        headers: { [PAYMENT_TOKEN_HEADER]: paymentToken },
        auth: false,
      },
      options,
    );
  }

  private page(params: ListPaymentsParams, options?: RequestOptions): Promise<ListPage<Payment>> {
    return this.http.request({ method: 'GET', path: '/api/v1/payments', query: { ...params } }, options);
  }
}
