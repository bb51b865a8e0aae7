/**
 * List calls answer one page (`{data, hasMore}`); the promise they return is also an async
 * iterable that walks every following page with `startingAfter`, so both read naturally:
 *   const page = await client.payments.list({ limit: 10 });
 *   for await (const payment of client.payments.list({ status: 'confirmed' })) { ... }
 */
import type { ListPage } from '../core/payment.js';

export type ListPromise<T> = Promise<ListPage<T>> & AsyncIterable<T>;

export interface PageParams {
  limit?: number;
  startingAfter?: string;
}

/** Walks all pages starting with `first`; each next page starts after the last item seen. */
export async function* iterateAll<T extends { id: string }, P extends PageParams>(
  first: Promise<ListPage<T>>,
  params: P,
  fetchPage: (params: P) => Promise<ListPage<T>>,
): AsyncGenerator<T, void, undefined> {
  let page = await first;
  for (;;) {
    yield* page.data;
    const last = page.data.at(-1);
    // hasMore with an empty page would loop forever on a misbehaving server; stop instead.
    if (!page.hasMore || last === undefined) return;
    page = await fetchPage({ ...params, startingAfter: last.id });
  }
}

/** The first page as a promise that is also iterable over all pages. */
export function listPromise<T extends { id: string }, P extends PageParams>(
  params: P,
  fetchPage: (params: P) => Promise<ListPage<T>>,
): ListPromise<T> {
  const first = fetchPage(params);
  return Object.assign(first, {
    [Symbol.asyncIterator]: () => iterateAll(first, params, fetchPage),
  });
}
