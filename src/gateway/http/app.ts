/** The Express application: middleware order matters (ids first, errors last). */
import express, { type Express } from 'express';
import helmet from 'helmet';
import { jsonOnly, notFound, requestId, staticHeaders } from './middleware.js';
import { problemHandler } from './problem.js';
import { httpMetrics, metricsHandler } from '../metrics/http.js';
import { requireHost } from './client-error.js';
import type { AppContext } from './routes/context.js';
import { merchantRouter } from './routes/merchant.js';
import { paymentsRouter } from './routes/payments.js';
import { createPaymentCors, publicCors, publicRouter } from './routes/public.js';

export const BODY_LIMIT = '16kb';

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.set('etag', false);
  app.use(requestId);
  app.use(httpMetrics(ctx.metrics));
  app.use(requireHost);
  app.use(staticHeaders(helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } })));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Prometheus metrics on the API port only behind METRICS_TOKEN (a separate METRICS_PORT needs none).
  if (ctx.config.metrics.token) app.get('/metrics', metricsHandler(ctx.metrics, ctx.config.metrics.token));

  const body = [jsonOnly, express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] })];
  app.use('/api/public', publicCors, ...body, publicRouter(ctx));
  app.use('/api/v1', createPaymentCors, ...body, paymentsRouter(ctx), merchantRouter(ctx));
  app.use(notFound);
  app.use(problemHandler(ctx.config.log));
  return app;
}
