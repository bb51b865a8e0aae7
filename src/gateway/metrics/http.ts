/**
 * HTTP side of the metrics: a middleware that times every request, and the GET /metrics handler.
 * Labels stay bounded whatever callers send: the route is the Express route template (ids never
 * appear), unknown paths are "unmatched", unusual methods are "OTHER".
 */
import type { Request, RequestHandler } from 'express';
import { hashCredential, hashesEqual } from '../keys.js';
import { ApiError } from '../http/problem.js';
import type { GatewayMetrics } from './metrics.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const MOUNTS = ['/api/public', '/api/v1'];

/** The route template that answered, e.g. "/api/v1/payments/:id/cancel"; "unmatched" when none did. */
export function routeLabel(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return 'unmatched';
  const mount = MOUNTS.find((m) => req.originalUrl.startsWith(m + '/')) ?? '';
  return mount + path;
}

export function httpMetrics(metrics: GatewayMetrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      metrics.recordHttp(routeLabel(req), method, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * GET /metrics. With a token, the caller must send `Authorization: Bearer <token>` (compared as
 * SHA-256 hashes in constant time); 401 problem otherwise. Without one (a separate metrics port
 * that only the monitoring network reaches), it answers everyone who can connect.
 */
export function metricsHandler(metrics: GatewayMetrics, token: string | null): RequestHandler {
  const expected = token ? hashCredential(token) : null;
  return async (req, res, next) => {
    try {
      if (expected) {
        const given = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
        if (!given || !hashesEqual(hashCredential(given), expected)) {
          throw new ApiError(401, 'metrics_token_invalid', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', undefined, {
            'WWW-Authenticate': 'Bearer realm="metrics"',
          });
        }
      }
      const body = await metrics.exposition();
      res.setHeader('Cache-Control', 'no-store');
      res.type(metrics.contentType).send(body);
    } catch (error) {
      next(error);
    }
  };
}
