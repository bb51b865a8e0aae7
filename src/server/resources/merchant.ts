/** client.merchant: /api/v1/merchant. */
import type { Merchant } from '../../core/payment.js';
import type { RequestOptions, Transport } from '../transport.js';

export class MerchantResource {
  constructor(private readonly http: Transport) {}

  retrieve(options?: RequestOptions): Promise<Merchant> {
    return this.http.request({ method: 'GET', path: '/api/v1/merchant' }, options);
  }
}
