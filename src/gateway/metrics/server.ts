/** The separate metrics listener (METRICS_PORT): GET /metrics only, for a monitoring network. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { GatewayConfig } from '../config.js';
import { notFound, requestId } from '../http/middleware.js';
import { problemHandler } from '../http/problem.js';
import { metricsHandler } from './http.js';
import type { GatewayMetrics } from './metrics.js';

export async function startMetricsServer(metrics: GatewayMetrics, config: GatewayConfig): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.get('/metrics', metricsHandler(metrics, config.metrics.token));
  app.use(notFound);
  app.use(problemHandler(config.log));
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.metrics.port ?? 0, config.metrics.host, (error?: Error) => (error ? reject(error) : resolve(s)));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.metrics.host.includes(':') ? `[${config.metrics.host}]` : config.metrics.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
