/**
 * /api/public: what a browser or a wallet may call, authorised by the payment token only.
 * Any origin (CORS, no credentials); rate limited per client address and per payment.
 */
import { Router, type Request, type RequestHandler } from 'express';
import { PAYMENT_TOKEN_HEADER } from '../../../core/payment.js';
import { TransferError } from '../../chain/index.js';
import { isId } from '../../ids.js';
import { hashCredential } from '../../keys.js';
import { isWalletAddress } from '../../merchants.js';
import type { MerchantRow, PaymentRow } from '../../store/store.js';
import { PublicViewCache, type CachedView } from '../public-view-cache.js';
import { ApiError } from '../problem.js';
import type { AppContext } from './context.js';

const TOKEN_SHAPE = /^svc_pt_[0-9A-Za-z]{43}$/;
const DEFAULT_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1f2937"/>' +
  '<path d="M18 40l6-6h22l-6 6zm0-10l6-6h22l-6 6zm6-10h22l-6 6H18z" fill="#a7f3d0"/></svg>';

export const publicCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'x-request-id, retry-after');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', `content-type, ${PAYMENT_TOKEN_HEADER}`);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
};

/**
 * The element may create a payment from the browser with a publishable key (DESIGN §7), so
 * POST /api/v1/payments alone also allows any origin. No credentials (cookies) are ever allowed:
 * the only authority is the bearer key the page itself sends. Every other /api/v1 route stays
 * closed to browsers on other origins.
 */
export const createPaymentCors: RequestHandler = (req, res, next) => {
  if (req.path !== '/payments') return next();
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'POST');
    res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, idempotency-key');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  if (req.method === 'POST') {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'x-request-id, idempotent-replayed');
  }
  next();
};

export function publicRouter(ctx: AppContext): Router {
  const router = Router();
  const merchants = new Map<string, { row: MerchantRow; until: number }>();

  async function merchantOf(id: string): Promise<MerchantRow> {
    const hit = merchants.get(id);
    if (hit && hit.until > Date.now()) return hit.row;
    const row = await ctx.store.getMerchant(id);
    if (!row) throw new ApiError(404, 'payment_not_found', 'No such payment.');
    if (merchants.size > 10_000) merchants.clear();
    merchants.set(id, { row, until: Date.now() + 30_000 });
    return row;
  }

  async function limit(req: Request, paymentId: string): Promise<void> {
    for (const [limiter, key] of [
      [ctx.limits.perClient, `ip:${req.ip}`],
      [ctx.limits.perPayment, `pay:${paymentId}`],
    ] as const) {
      const d = await limiter.take(key);
      if (!d.allowed) {
        throw new ApiError(429, 'rate_limited', `Too many requests. Retry after ${d.retryAfterSeconds} s.`, undefined, {
          'Retry-After': String(d.retryAfterSeconds),
        });
      }
    }
  }

  /** The payment the token opens, which must be the one in the path. Same answer for every failure. */
  async function paymentFor(id: string | undefined, token: string | undefined): Promise<PaymentRow> {
    if (!token) {
      throw new ApiError(401, 'payment_token_missing', `Send the payment token in the ${PAYMENT_TOKEN_HEADER} header.`);
    }
    const row = TOKEN_SHAPE.test(token) && isId('pay', id) ? await ctx.store.getPaymentByToken(hashCredential(token)) : undefined;
    if (!row || row.id !== id) throw new ApiError(401, 'payment_token_invalid', 'This payment token does not open this payment.');
    return row;
  }

  router.get('/icon.svg', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(DEFAULT_ICON);
  });

  /**
   * The public view the token opens, from memory when it can be (public-view-cache.ts): the token's
   * hash is computed once per request and looked up, never compared by hand; a token known to open
   * another payment is refused without touching the database.
   */
  async function publicView(id: string | undefined, token: string | undefined): Promise<CachedView> {
    if (!token) {
      throw new ApiError(401, 'payment_token_missing', `Send the payment token in the ${PAYMENT_TOKEN_HEADER} header.`);
    }
    const invalid = () => new ApiError(401, 'payment_token_invalid', 'This payment token does not open this payment.');
    if (!TOKEN_SHAPE.test(token) || !isId('pay', id)) throw invalid();
    const hash = hashCredential(token);
    const known = ctx.views.paymentIdOf(hash);
    if (known !== undefined && known !== id) throw invalid();
    const cached = known === undefined ? undefined : ctx.views.view(known);
    if (cached) return cached;
    const stamp = ctx.views.readStamp();
    const row = known === undefined ? await ctx.store.getPaymentByToken(hash) : await ctx.store.getPayment(known);
    if (!row || row.id !== id) throw invalid();
    return ctx.views.remember(row, await merchantOf(row.merchant_id), stamp, hash);
  }

  router.post('/payments/:id/verify', async (req, res) => {
    await limit(req, String(req.params.id).slice(0, 40));
    const view = await publicView(req.params.id, req.get(PAYMENT_TOKEN_HEADER));
    // Never wait for the chain here: thousands of open tabs must cost no more RPC than the watcher
    // (checks coalesce per payment) and each answer must stay fast. The next poll sees the result.
    if (view.status !== 'confirmed') ctx.service.requestCheck(view.paymentId);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'application/json');
    res.send(PublicViewCache.body(view));
  });

  function queryToken(req: Request): string | undefined {
    const t = (req.query as Record<string, unknown>).token;
    return typeof t === 'string' ? t : undefined;
  }

  // Solana Pay transaction request (https://docs.solanapay.com/spec#specification-transaction-request).
  router.get('/payments/:id/transaction', async (req, res) => {
    await limit(req, String(req.params.id).slice(0, 40));
    const row = await paymentFor(req.params.id, queryToken(req));
    const merchant = await merchantOf(row.merchant_id);
    // The spec wants an icon; without a merchant logo, the gateway's own neutral one.
    const icon = merchant.logo_url ?? `${req.protocol}://${req.get('host')}/api/public/icon.svg`;
    res.json({ label: merchant.name, icon });
  });

  router.post('/payments/:id/transaction', async (req, res) => {
    await limit(req, String(req.params.id).slice(0, 40));
    const row = await paymentFor(req.params.id, queryToken(req));
    const account = (req.body as { account?: unknown } | undefined)?.account;
    if (typeof account !== 'string' || !isWalletAddress(account)) {
      throw new ApiError(400, 'account_invalid', 'account must be the base58 address of the paying wallet.', 'account');
    }
    if (row.status !== 'pending') {
      throw new ApiError(409, 'payment_not_payable', `This payment is ${row.status}; it can no longer be paid.`);
    }
    if (Date.now() >= Date.parse(row.expires_at)) {
      throw new ApiError(409, 'payment_not_payable', 'This payment has expired; it can no longer be paid.');
    }
    let built: { transaction: string; message?: string };
    try {
      built = await ctx.chain.buildTransactionRequest(
        { recipient: row.recipient, amount: BigInt(row.amount_base), mint: row.mint, reference: row.reference, memo: row.memo, label: row.label, message: row.message },
        account,
      );
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof TransferError) throw new ApiError(400, error.code, error.message, 'account');
      ctx.config.log(`[gateway] transaction request for ${row.id} failed: ${(error as Error)?.message ?? String(error)}`);
      throw new ApiError(503, 'rpc_unavailable', 'The transaction could not be built right now. Retry shortly.');
    }
    res.json({ transaction: built.transaction, message: built.message ?? row.message ?? row.label ?? undefined });
  });

  return router;
}
