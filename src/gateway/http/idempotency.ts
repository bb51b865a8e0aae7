/**
 * Idempotency-Key handling for every POST under /api/v1 (create, cancel, verify, redeliver; DESIGN §4,
 * as Stripe does on all POSTs): up to 255 printable characters, kept 24 h per merchant and mode. The
 * key covers the method, the path and the body, so one key used on another route or payment is a clash. A replay returns the first response with Idempotent-Replayed: true;
 * the same key with another body is 409; a key whose first request is still running is 409 too.
 * Failed requests release the key, so the caller can fix the request and retry with it. A key left
 * unfinished by an instance that died mid-request is taken over by a retry after `lockMs` (config
 * idempotencyLockMs, IDEMPOTENCY_LOCK_MS); a create stores its answer in the payment's own transaction,
 * so such a takeover never creates the payment twice.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Store } from '../store/store.js';
import type { AuthContext } from './auth.js';
import { ApiError } from './problem.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export async function idempotent(
  store: Store,
  req: Request,
  res: Response,
  ctx: AuthContext,
  run: (key?: string) => Promise<{ status: number; body: unknown }>,
  lockMs = 60_000,
): Promise<void> {
  const key = req.get('idempotency-key');
  if (key === undefined) {
    const { status, body } = await run();
    res.status(status).json(body);
    return;
  }
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError(400, 'idempotency_key_invalid', 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.');
  }
  const requestHash = createHash('sha256')
    .update(`${req.method} ${req.path}\n${JSON.stringify(req.body ?? null)}`)
    .digest('hex');
  const merchantId = ctx.merchant.id;
  const now = Date.now();
  const existing = await store.getIdempotency(merchantId, ctx.livemode, key);
  if (existing && Date.parse(existing.expires_at) > now) {
    if (existing.request_hash !== requestHash) {
      throw new ApiError(409, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
    }
    if (existing.status_code !== null && existing.response_body !== null) {
      res.status(existing.status_code).setHeader('Idempotent-Replayed', 'true').type('application/json').send(existing.response_body);
      return;
    }
    // Unfinished: still running elsewhere, or its instance was killed mid-request (then, after the lock, a retry takes over).
    if (now - Date.parse(existing.created_at) < lockMs) {
      throw new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
    }
  }
  const row = {
    merchant_id: merchantId,
    livemode: ctx.livemode ? 1 : 0,
    key,
    request_hash: requestHash,
    status_code: null,
    response_body: null,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + IDEMPOTENCY_TTL_MS).toISOString(),
  };
  const stale = existing && Date.parse(existing.expires_at) > now ? existing : undefined;
  const began = stale ? await store.takeOverIdempotency(row, stale.created_at) : await store.beginIdempotency(row);
  if (!began) {
    throw new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
  }
  let result: { status: number; body: unknown };
  try {
    result = await run(key);
  } catch (error) {
    await store.deleteIdempotency(merchantId, ctx.livemode, key);
    throw error;
  }
  const json = JSON.stringify(result.body);
  await store.completeIdempotency(merchantId, ctx.livemode, key, result.status, json);
  res.status(result.status).type('application/json').send(json);
}
