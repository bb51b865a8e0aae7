/** client.events: /api/v1/events. */
import type { ListPage, PaymentEvent } from '../../core/payment.js';
import { iterateAll, listPromise, type ListPromise, type PageParams } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';
import { pathId } from './path.js';

export type ListEventsParams = PageParams;

/** The answer of events.redeliver: the delivery is queued, not yet made. */
export interface EventRedelivery {
  object: 'redelivery';
  eventId: string;
  queued: boolean;
}

export class Events {
  constructor(private readonly http: Transport) {}

  /** One page, newest first; also `for await`-able over every page. */
  list(params: ListEventsParams = {}, options?: RequestOptions): ListPromise<PaymentEvent> {
    return listPromise(params, (p) => this.page(p, options));
  }

  listAll(params: ListEventsParams = {}, options?: RequestOptions): AsyncIterable<PaymentEvent> {
    return { [Symbol.asyncIterator]: () => iterateAll(this.page(params, options), params, (p) => this.page(p, options)) };
  }

  async retrieve(id: string, options?: RequestOptions): Promise<PaymentEvent> {
    return this.http.request({ method: 'GET', path: `/api/v1/events/${pathId(id, 'event')}` }, options);
  }

  /** Queues the event's webhook again (it keeps its webhook-id, so receivers still deduplicate it). */
  async redeliver(id: string, options?: RequestOptions): Promise<EventRedelivery> {
    return this.http.request({ method: 'POST', path: `/api/v1/events/${pathId(id, 'event')}/redeliver` }, options);
  }

  private page(params: ListEventsParams, options?: RequestOptions): Promise<ListPage<PaymentEvent>> {
    return this.http.request({ method: 'GET', path: '/api/v1/events', query: { ...params } }, options);
  }
}
