/** /api/v1/payments: create, read, list, cancel, merchant verify. */
import { Router, type Response } from 'express';
import type { ListPage, Payment } from '../../../core/payment.js';
import { isId } from '../../ids.js';
import { toPayment } from '../../payments/view.js';
import type { PaymentRow } from '../../store/store.js';
import { auth, authenticate } from '../auth.js';
import { idempotent } from '../idempotency.js';
import { ApiError } from '../problem.js';
import { pageQuery, paymentFilters } from '../queries.js';
import type { AppContext } from './context.js';

export function paymentsRouter(ctx: AppContext): Router {
  const router = Router();
  const secretOnly = authenticate(ctx.store, { allowPublishable: false });

  /** The payment if it belongs to the caller's merchant and mode; 404 otherwise (never 403: ids do not leak). */
  async function ownPayment(res: Response, id: string | undefined): Promise<PaymentRow> {
    const a = auth(res);
    const row = isId('pay', id) ? await ctx.store.getPayment(id) : undefined;
    if (!row || row.merchant_id !== a.merchant.id || row.livemode !== (a.livemode ? 1 : 0)) {
      throw new ApiError(404, 'payment_not_found', `No payment ${JSON.stringify(String(id ?? '').slice(0, 64))} for this key.`, 'id');
    }
    return row;
  }

  router.post('/payments', authenticate(ctx.store, { allowPublishable: true }), async (req, res) => {
    const a = auth(res);
    await idempotent(
      ctx.store,
      req,
      res,
      a,
      async (key) => ({ status: 201, body: await ctx.service.create(a.merchant, a.livemode, req.body, key) }),
      ctx.config.idempotencyLockMs,
    );
  });

  router.get('/payments', secretOnly, async (req, res) => {
    const a = auth(res);
    const page = pageQuery(req, 'pay');
    const rows = await ctx.store.listPayments(a.merchant.id, a.livemode, { ...paymentFilters(req), ...page, limit: page.limit + 1 });
    const body: ListPage<Payment> = { object: 'list', data: rows.slice(0, page.limit).map(toPayment), hasMore: rows.length > page.limit };
    res.json(body);
  });

  router.get('/payments/:id', secretOnly, async (req, res) => {
    res.json(toPayment(await ownPayment(res, String(req.params.id))));
  });

  // Every POST honours Idempotency-Key (the SDK retries these with one): a retried cancel replays the
  // first answer instead of failing with payment_not_cancellable; a retried verify replays the payment
  // as that first check saw it.
  router.post('/payments/:id/cancel', secretOnly, async (req, res) => {
    const row = await ownPayment(res, String(req.params.id));
    await idempotent(ctx.store, req, res, auth(res), async () => ({ status: 200, body: toPayment(await ctx.service.cancel(row)) }), ctx.config.idempotencyLockMs);
  });

  router.post('/payments/:id/verify', secretOnly, async (req, res) => {
    const row = await ownPayment(res, String(req.params.id));
    await idempotent(ctx.store, req, res, auth(res), async () => ({
      status: 200,
      body: toPayment((await ctx.service.check(row.id)) ?? row),
    }), ctx.config.idempotencyLockMs);
  });

  return router;
}
