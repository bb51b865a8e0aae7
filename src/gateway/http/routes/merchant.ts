/** /api/v1/merchant and /api/v1/events. */
import { Router } from 'express';
import type { ListPage, Merchant, PaymentEvent } from '../../../core/payment.js';
import { isId } from '../../ids.js';
import { auth, authenticate } from '../auth.js';
import { idempotent } from '../idempotency.js';
import { ApiError } from '../problem.js';
import { pageQuery } from '../queries.js';
import type { AppContext } from './context.js';

export function merchantRouter(ctx: AppContext): Router {
  const router = Router();
  const secretOnly = authenticate(ctx.store, { allowPublishable: false });

  router.get('/merchant', secretOnly, async (_req, res) => {
    const a = auth(res);
    const body: Merchant = {
      object: 'merchant',
      id: a.merchant.id,
      name: a.merchant.name,
      logoUrl: a.merchant.logo_url,
      recipient: a.merchant.recipient,
      currencies: await ctx.service.currencies.list(),
      defaultExpiresIn: a.merchant.default_expires_in,
      livemode: a.livemode,
    };
    res.json(body);
  });

  router.get('/events', secretOnly, async (req, res) => {
    const a = auth(res);
    const page = pageQuery(req, 'evt');
    const rows = await ctx.store.listEvents(a.merchant.id, a.livemode, { ...page, limit: page.limit + 1 });
    const body: ListPage<PaymentEvent> = {
      object: 'list',
      data: rows.slice(0, page.limit).map((r) => JSON.parse(r.body) as PaymentEvent),
      hasMore: rows.length > page.limit,
    };
    res.json(body);
  });

  async function ownEvent(merchantId: string, livemode: boolean, id: string | undefined) {
    const row = isId('evt', id) ? await ctx.store.getEvent(id) : undefined;
    if (!row || row.merchant_id !== merchantId || row.livemode !== (livemode ? 1 : 0)) {
      throw new ApiError(404, 'event_not_found', `No event ${JSON.stringify(String(id ?? '').slice(0, 64))} for this key.`, 'id');
    }
    return row;
  }

  router.get('/events/:id', secretOnly, async (req, res) => {
    const a = auth(res);
    const row = await ownEvent(a.merchant.id, a.livemode, String(req.params.id));
    res.json(JSON.parse(row.body));
  });

  router.post('/events/:id/redeliver', secretOnly, async (req, res) => {
    const a = auth(res);
    const row = await ownEvent(a.merchant.id, a.livemode, String(req.params.id));
    // With an Idempotency-Key, a retried redeliver queues nothing more: it replays the first 202.
    await idempotent(ctx.store, req, res, a, async () => {
      const merchant = await ctx.store.getMerchant(a.merchant.id);
      if (!merchant?.webhook_url) {
        throw new ApiError(409, 'webhook_not_configured', 'This merchant has no webhook URL, so there is nothing to deliver to.');
      }
      if (merchant.webhook_disabled) {
        // An explicit redelivery re-enables an endpoint that once answered 410.
        await ctx.store.setWebhook(merchant.id, merchant.webhook_url, false);
      }
      await ctx.store.enqueueDelivery(row.id, new Date().toISOString());
      ctx.kickWebhooks();
      return { status: 202, body: { object: 'redelivery', eventId: row.id, queued: true } };
    }, ctx.config.idempotencyLockMs);
  });

  return router;
}
