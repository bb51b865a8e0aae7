import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './problem.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;
// Unique, not secret: a random per-process prefix and a counter (cheaper than random bytes per request).
const ID_PREFIX = 'req_' + randomBytes(6).toString('hex');
let counter = 0;

/** Every response carries x-request-id: the caller's own when it looks sane, else a fresh one. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && INCOMING_ID.test(incoming) ? incoming : `${ID_PREFIX}${(counter++).toString(16).padStart(8, '0')}`;
  res.setHeader('x-request-id', id);
  next();
};

/**
 * A middleware that only sets fixed headers (helmet with a static configuration), run once at start
 * against a recording response; every request then gets the same headers without running it again.
 */
export function staticHeaders(middleware: RequestHandler): RequestHandler {
  const headers: [string, string | number | readonly string[]][] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, value]);
      return recorder;
    },
    removeHeader() {},
  };
  let called = false;
  middleware({ method: 'GET', headers: {} } as Parameters<RequestHandler>[0], recorder as unknown as Parameters<RequestHandler>[1], () => {
    called = true;
  });
  if (!called) throw new Error('staticHeaders: the middleware did not finish synchronously');
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** Bodies must be JSON (415 otherwise). A bodiless POST (cancel, verify) is fine. */
export const jsonOnly: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (!hasBody) return next();
  const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    return next(new ApiError(415, 'unsupported_media_type', 'Send the request body as application/json.'));
  }
  next();
};

/** Handlers only run for known routes; everything else gets a problem 404. */
export const notFound: RequestHandler = (_req, _res, next) => {
  next(new ApiError(404, 'route_not_found', 'There is no such route. See docs/api.md for the routes.'));
};
