/** Wiring: store + chain + service + HTTP app + watcher + webhook worker, started and stopped together. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveConfig, type GatewayConfig } from './config.js';
import { RecipientWatch } from './detection/index.js';
import { createApp } from './http/app.js';
import { PublicViewCache } from './http/public-view-cache.js';
import { answerClientErrors } from './http/client-error.js';
import { startMetricsServer } from './metrics/server.js';
import { GatewayMetrics } from './metrics/metrics.js';
import { TokenBucketLimiter } from './http/rate-limit.js';
import type { ChainPort } from './payments/chain-port.js';
import { PaymentService } from './payments/service.js';
import { SolanaChain } from './payments/solana-chain.js';
import { openStore } from './store/index.js';
import type { Store } from './store/store.js';
import { Watcher } from './watcher.js';
import { WebhookWorker } from './webhooks/worker.js';

export type GatewayOptions = Partial<Omit<GatewayConfig, 'watcher' | 'webhooks' | 'rateLimits' | 'metrics' | 'detection'>> & {
  rpcUrl: string;
  databasePath: string;
  port?: number;
  watcher?: Partial<GatewayConfig['watcher']>;
  detection?: Partial<GatewayConfig['detection']>;
  webhooks?: Partial<GatewayConfig['webhooks']>;
  rateLimits?: Partial<GatewayConfig['rateLimits']>;
  metrics?: Partial<GatewayConfig['metrics']>;
  /** Start the watcher and the webhook worker (default true). Benchmarks may turn them off. */
  background?: boolean;
};

export interface RunningGateway {
  url: string;
  port: number;
  config: GatewayConfig;
  store: Store;
  service: PaymentService;
  chain: ChainPort;
  watcher: Watcher;
  /** The recipient watch (fast detection); undefined when config.detection.enabled is false. */
  detection: RecipientWatch | undefined;
  webhooks: WebhookWorker;
  metrics: GatewayMetrics;
  /** Base URL of the separate metrics listener (config.metrics.port), or null. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const { background = true, ...rest } = options;
  const config = resolveConfig(rest as Partial<GatewayConfig>);
  // A lease shorter than the work it guards lets a second instance start the same work.
  if (config.webhooks.leaseMs <= config.webhooks.timeoutMs) {
    config.log(`[gateway] warning: WEBHOOK_LEASE_MS (${config.webhooks.leaseMs}) should exceed WEBHOOK_TIMEOUT_MS (${config.webhooks.timeoutMs}), or a slow endpoint may get an event from two instances at once`);
  }
  const store = await openStore(config);
  const metrics = new GatewayMetrics();
  const chain = new SolanaChain(config.rpcUrl, config.commitment, config.rpcTimeoutMs, (method, seconds, error) =>
    metrics.recordRpc(method, seconds, error),
  );
  const webhooks = new WebhookWorker(store, config, (result, failure) => metrics.recordWebhook(result, failure));
  const views = new PublicViewCache(config.publicViewTtlMs);
  // Payments found by the recipient watch are checked at once (the service limits how often).
  const detection = config.detection.enabled
    ? new RecipientWatch(chain.connection, { ...config.detection, log: config.log, onMatch: (id) => service.hint(id) })
    : undefined;
  const service = new PaymentService({ store, chain, config, onEvent: (paymentId) => {
      views.invalidate(paymentId);
      webhooks.kick();
    }, ...(detection && { detection }) });
  metrics.attach({
    snapshot: (now) => store.metricsSnapshot(now),
    checksStarted: () => service.checksStarted,
    scanRpcCalls: () => chain.scanRpcCalls,
  });
  const watcher = new Watcher(store, service, config);
  const app = createApp({
    config,
    store,
    service,
    chain,
    metrics,
    limits: {
      // Shared through the database when instances share it (PostgreSQL), else in memory.
      perPayment: store.sharedRateLimiter?.('perPayment', config.rateLimits.perPayment) ?? new TokenBucketLimiter(config.rateLimits.perPayment),
      perClient: store.sharedRateLimiter?.('perClient', config.rateLimits.perClient) ?? new TokenBucketLimiter(config.rateLimits.perClient),
    },
    views,
    kickWebhooks: () => webhooks.kick(),
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(s)));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  const port = (server.address() as AddressInfo).port;
  const metricsServer = config.metrics.port === null ? null : await startMetricsServer(metrics, config).catch(async (error: unknown) => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.close();
    throw error;
  });
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (background) {
    watcher.start();
    detection?.start();
    webhooks.start();
  }
  const purge = setInterval(() => void store.purgeIdempotency(new Date().toISOString()).catch(() => {}), 3600_000);
  purge.unref();

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    port,
    config,
    store,
    service,
    chain,
    watcher,
    detection,
    webhooks,
    metrics,
    metricsUrl: metricsServer?.url ?? null,
    close() {
      closing ??= (async () => {
        clearInterval(purge);
        await metricsServer?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await watcher.stop();
        await detection?.stop();
        await webhooks.stop();
        await store.close();
      })();
      return closing;
    },
  };
}
