/**
 * Webhook delivery worker. Claims due outbox rows with a lease (so a crashed or killed gateway's
 * deliveries are retried once the lease runs out: at-least-once, nothing lost), POSTs the event
 * JSON signed per Standard Webhooks with every signing secret of the merchant (rotation), and
 * records the outcome: 2xx delivered, 410 disables the endpoint, anything else retries on the schedule.
 */
import { webhookHeaders } from '../../server/webhooks/signature.js';
import type { GatewayConfig } from '../config.js';
import type { WebhookFailure, WebhookResult } from '../metrics/metrics.js';
import type { ClaimedDelivery, Store } from '../store/store.js';
import { retryDelay } from './schedule.js';
import { PeriodicTask } from '../periodic.js';

export class WebhookWorker {
  private busy = false;
  private readonly loop = new PeriodicTask(() => this.pass(), () => this.config.webhooks.pollMs);
  private readonly active = new Set<AbortController>();
  /** Deliveries attempted (for tests and benchmarks). */
  attempts = 0;

  constructor(
    private readonly store: Store,
    private readonly config: GatewayConfig,
    /** Told the outcome of every attempt (metrics). */
    private readonly observe: (result: WebhookResult, failure?: WebhookFailure) => void = () => {},
  ) {}

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    const stopped = this.loop.stop(); // no new pass from here on
    for (const c of this.active) c.abort();
    await stopped;
  }

  /** Look for work now (called after an event is written). */
  kick(): void {
    this.loop.wake();
  }

  /** Claims and delivers every due row (in parallel, bounded by the claim size). */
  async pass(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      const claimed = await this.store.claimDeliveries(
        new Date(now).toISOString(),
        new Date(now + this.config.webhooks.leaseMs).toISOString(),
        32,
      );
      await Promise.all(claimed.map((d) => this.deliver(d)));
      if (claimed.length === 32) this.loop.wake();
    } catch (error) {
      this.config.log(`[gateway] webhook pass failed: ${(error as Error)?.message ?? String(error)}`);
    } finally {
      this.busy = false;
    }
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    if (!d.webhookUrl || d.webhookDisabled) {
      await this.store.finishDelivery(d.outbox.id, { kind: 'failed', status: null, error: 'merchant has no active webhook endpoint' });
      return;
    }
    const secrets = await this.store.webhookSecrets(d.outbox.merchant_id, new Date().toISOString());
    const eventId = (JSON.parse(d.eventBody) as { id: string }).id;
    const timestamp = Math.floor(Date.now() / 1000);
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), this.config.webhooks.timeoutMs);
    this.active.add(controller);
    this.attempts++;
    let status: number | null = null;
    let error = '';
    let failure: WebhookFailure | undefined;
    try {
      const response = await fetch(d.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'svc-checkout-webhooks/1',
          ...webhookHeaders(secrets, eventId, timestamp, d.eventBody),
        },
        body: d.eventBody,
        redirect: 'manual',
        signal: controller.signal,
      });
      status = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (e) {
      failure = controller.signal.aborted ? 'timeout' : 'network';
      error = controller.signal.aborted ? `timed out after ${this.config.webhooks.timeoutMs} ms` : `network error: ${(e as Error)?.message ?? e}`;
    } finally {
      clearTimeout(timeout);
      this.active.delete(controller);
    }
    if (this.loop.stopped && status === null) return; // shutting down: the lease expires and another pass retries
    if (status !== null && status >= 200 && status < 300) {
      this.observe('delivered');
      await this.store.finishDelivery(d.outbox.id, { kind: 'delivered', status, at: new Date().toISOString() });
      return;
    }
    if (status !== null) failure = 'http_status';
    if (status === 410) {
      this.observe('disabled', failure);
      this.config.log(`[gateway] webhook endpoint of ${d.outbox.merchant_id} answered 410 Gone: disabled`);
      await this.store.finishDelivery(d.outbox.id, { kind: 'disabled', status });
      return;
    }
    if (status !== null) error = `HTTP ${status}`;
    const delay = retryDelay(this.config.webhooks.retryScheduleMs, d.outbox.attempts + 1, this.config.webhooks.jitter);
    this.observe(delay === null ? 'failed' : 'retry', failure);
    if (delay === null) {
      await this.store.finishDelivery(d.outbox.id, { kind: 'failed', status, error });
      return;
    }
    await this.store.finishDelivery(d.outbox.id, {
      kind: 'retry',
      status,
      error,
      nextAttemptAt: new Date(Date.now() + delay).toISOString(),
    });
  }
}
