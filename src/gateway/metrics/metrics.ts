/**
 * The gateway's Prometheus metrics (prom-client), one registry per gateway so several gateways in one
 * process (tests, benchmarks) never mix their numbers. Series (docs/operations.md explains each and
 * the alerts built on them):
 *   svc_http_requests_total{route,method,status}      svc_http_request_duration_seconds{route,method}
 *   svc_payments_watched{status}                        svc_payment_checks_total
 *   svc_rpc_requests_total{method}                      svc_rpc_errors_total{method,reason}
 *   svc_rpc_request_duration_seconds{method}            svc_chain_scan_rpc_calls_total
 *   svc_webhook_attempts_total                          svc_webhook_failures_total{reason}
 *   svc_webhook_deliveries_total{result}                svc_webhook_outbox_pending, svc_webhook_outbox_oldest_due_seconds
 *   svc_database_up
 * plus prom-client's default process and Node.js series (CPU, memory, event-loop lag, GC).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsSnapshot } from '../store/store.js';

/** Where the numbers kept elsewhere are read from at scrape time. */
export interface MetricsSources {
  /** Watched payments and webhook backlog, from the database (shared by all instances). */
  snapshot(now: string): Promise<MetricsSnapshot>;
  /** Chain checks started by this instance (watcher, merchant verify, public verify; coalesced). */
  checksStarted(): number;
  /** RPC requests the reference scanner made (getSignaturesForAddress pages, getTransaction). */
  scanRpcCalls(): number;
}

export type WebhookResult = 'delivered' | 'retry' | 'failed' | 'disabled';
export type WebhookFailure = 'http_status' | 'network' | 'timeout';
export type RpcErrorReason = 'timeout' | 'network' | 'http_status' | 'rpc_error';

const STATUSES = ['pending', 'processing', 'expired', 'cancelled', 'confirmed'] as const;

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly httpDuration: Histogram<'route' | 'method'>;
  readonly rpcRequests: Counter<'method'>;
  readonly rpcErrors: Counter<'method' | 'reason'>;
  readonly rpcDuration: Histogram<'method'>;
  readonly webhookAttempts: Counter;
  readonly webhookFailures: Counter<'reason'>;
  readonly webhookDeliveries: Counter<'result'>;
  #sources: MetricsSources | undefined;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'svc_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status code.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time from request to the last byte of the response.',
      labelNames: ['route', 'method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.rpcRequests = new Counter({
      name: 'svc_rpc_requests_total',
      help: 'Solana JSON-RPC requests sent, by method.',
      labelNames: ['method'],
      registers,
    });
    this.rpcErrors = new Counter({
      name: 'svc_rpc_errors_total',
      help: 'Solana JSON-RPC requests that failed: timeout, network error, non-2xx HTTP status, or a JSON-RPC error answer.',
      labelNames: ['method', 'reason'],
      registers,
    });
    this.rpcDuration = new Histogram({
      name: 'svc_rpc_request_duration_seconds',
      help: 'Solana JSON-RPC request latency, by method.',
      labelNames: ['method'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'svc_webhook_attempts_total',
      help: 'Webhook POSTs attempted by this instance.',
      registers,
    });
    this.webhookFailures = new Counter({
      name: 'svc_webhook_failures_total',
      help: 'Webhook attempts that did not get a 2xx: non-2xx status, network error or timeout.',
      labelNames: ['reason'],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'svc_webhook_deliveries_total',
      help: 'Outcome recorded per attempt: delivered, retry (scheduled again), failed (gave up), disabled (410 Gone).',
      labelNames: ['result'],
      registers,
    });

    // Scrape-time values. Counters kept elsewhere are mirrored (reset, then set to the current total).
    const sources = () => this.#sources;
    new Counter({
      name: 'svc_payment_checks_total',
      help: 'Chain checks of payments started by this instance (watcher, merchant verify and public verify share them).',
      registers,
      collect() {
        const n = sources()?.checksStarted() ?? 0;
        this.reset();
        this.inc(n);
      },
    });
    new Counter({
      name: 'svc_chain_scan_rpc_calls_total',
      help: 'RPC requests made by the reference scanner (getSignaturesForAddress pages and getTransaction reads).',
      registers,
      collect() {
        const n = sources()?.scanRpcCalls() ?? 0;
        this.reset();
        this.inc(n);
      },
    });
    // One snapshot query per scrape, shared by the three gauges below (collect() runs for each).
    let pendingSnapshot: Promise<MetricsSnapshot | undefined> | undefined;
    let databaseUp = 0;
    const snapshot = () => {
      // A database that does not answer leaves the database-wide gauges empty (and svc_database_up 0), never fails the scrape.
      pendingSnapshot ??= (sources()?.snapshot(new Date().toISOString()) ?? Promise.resolve(undefined))
        .then(
          (s) => ((databaseUp = s ? 1 : 0), s),
          () => ((databaseUp = 0), undefined),
        )
        .finally(() => setImmediate(() => (pendingSnapshot = undefined)));
      return pendingSnapshot;
    };
    new Gauge({
      name: 'svc_payments_watched',
      help: 'Payments the watcher still checks, by status (pending and processing, and expired or cancelled ones in the late watch). Database-wide: every instance reports the same.',
      labelNames: ['status'],
      registers,
      async collect() {
        const s = await snapshot();
        this.reset();
        if (s) for (const status of STATUSES) this.set({ status }, s.watched.find((w) => w.status === status)?.count ?? 0);
      },
    });
    new Gauge({
      name: 'svc_webhook_outbox_pending',
      help: 'Webhook deliveries waiting (due now or retrying later). Database-wide.',
      registers,
      async collect() {
        const s = await snapshot();
        this.reset();
        if (s) this.set(s.outboxPending);
      },
    });
    new Gauge({
      name: 'svc_webhook_outbox_oldest_due_seconds',
      help: 'How long the oldest due webhook delivery has been waiting (0 when none). Database-wide.',
      registers,
      async collect() {
        const s = await snapshot();
        this.reset();
        if (s) this.set(s.outboxOldestDueAt ? Math.max(0, (Date.now() - Date.parse(s.outboxOldestDueAt)) / 1000) : 0);
      },
    });
    new Gauge({
      name: 'svc_database_up',
      help: '1 when the database answered the metrics query of this scrape, else 0.',
      registers,
      async collect() {
        await snapshot();
        this.set(databaseUp);
      },
    });
  }

  /** Connects the scrape-time sources (the gateway does it once its parts exist). */
  attach(sources: MetricsSources): void {
    this.#sources = sources;
  }

  recordHttp(route: string, method: string, status: number, seconds: number): void {
    this.httpRequests.inc({ route, method, status: String(status) });
    this.httpDuration.observe({ route, method }, seconds);
  }

  recordRpc(method: string, seconds: number, error?: RpcErrorReason): void {
    this.rpcRequests.inc({ method });
    this.rpcDuration.observe({ method }, seconds);
    if (error) this.rpcErrors.inc({ method, reason: error });
  }

  recordWebhook(result: WebhookResult, failure?: WebhookFailure): void {
    this.webhookAttempts.inc();
    if (failure) this.webhookFailures.inc({ reason: failure });
    this.webhookDeliveries.inc({ result });
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
