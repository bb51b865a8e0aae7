/**
 * Bearer key authentication for /api/v1 (DESIGN §2). The key is hashed and looked up; the plain
 * key is never logged or echoed. Lookup by hash is an index probe on a 256-bit digest, so timing
 * reveals nothing about stored keys; hashesEqual re-checks in constant time anyway.
 */
import type { RequestHandler, Response } from 'express';
import { hashCredential, hashesEqual, parseKeyShape, type KeyKind, type KeyMode } from '../keys.js';
import type { MerchantRow, Store } from '../store/store.js';
import { ApiError } from './problem.js';

export interface AuthContext {
  merchant: MerchantRow;
  mode: KeyMode;
  kind: KeyKind;
  livemode: boolean;
}

export function auth(res: Response): AuthContext {
  const ctx = res.locals.auth as AuthContext | undefined;
  if (!ctx) throw new Error('route is missing the authenticate middleware');
  return ctx;
}

export function authenticate(store: Store, opts: { allowPublishable: boolean }): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (!header) {
      return next(new ApiError(401, 'api_key_missing', 'Send your secret key as "Authorization: Bearer svc_..."'));
    }
    const m = /^Bearer +(\S+) *$/i.exec(header);
    const key = m?.[1];
    const shape = key ? parseKeyShape(key) : null;
    if (!key || !shape) {
      return next(new ApiError(401, 'api_key_invalid', 'The Authorization header does not hold a valid API key.'));
    }
    const hash = hashCredential(key);
    const found = await store.findApiKey(hash);
    if (!found || !hashesEqual(found.key.hash, hash) || found.key.kind !== shape.kind || found.key.mode !== shape.mode) {
      return next(new ApiError(401, 'api_key_invalid', 'This API key is not valid.'));
    }
    if (found.key.revoked_at) {
      return next(new ApiError(401, 'api_key_revoked', 'This API key has been revoked. Use the current key.'));
    }
    if (found.key.kind === 'publishable' && !opts.allowPublishable) {
      return next(
        new ApiError(403, 'secret_key_required', 'A publishable key can only create payments; this route needs the secret key.'),
      );
    }
    res.locals.auth = {
      merchant: found.merchant,
      mode: found.key.mode,
      kind: found.key.kind,
      livemode: found.key.mode === 'live',
    } satisfies AuthContext;
    next();
  };
}
