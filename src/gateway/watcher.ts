/**
 * The watcher: every tick it asks the store for payments whose next check is due and checks them
 * through the service (which coalesces with browser and merchant verifies and reschedules each
 * payment with back-off as it ages). Expiry and the late watch happen inside those checks.
 */
import type { GatewayConfig } from './config.js';
import type { PaymentService } from './payments/service.js';
import type { Store } from './store/store.js';
import { PeriodicTask } from './periodic.js';

export class Watcher {
  private running = false;
  private readonly loop = new PeriodicTask(() => this.tick(), () => this.config.watcher.tickMs);

  constructor(
    private readonly store: Store,
    private readonly service: PaymentService,
    private readonly config: GatewayConfig,
  ) {}

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass over the due payments, `concurrency` checks at a time. */
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      // Claimed rows are leased to this instance (SKIP LOCKED on PostgreSQL): other instances skip them.
      const now = Date.now();
      const { minCheckIntervalMs, checkLeaseMs, batchSize } = this.config.watcher;
      const due = await this.store.claimDueChecks(
        new Date(now).toISOString(),
        new Date(now - minCheckIntervalMs).toISOString(),
        new Date(now + checkLeaseMs).toISOString(),
        batchSize,
      );
      let i = 0;
      const worker = async () => {
        while (i < due.length && !this.loop.stopped) {
          const row = due[i++]!;
          try {
            await this.service.check(row.id, { claimed: true });
          } catch (error) {
            this.config.log(`[gateway] watcher: check of ${row.id} failed: ${(error as Error)?.message ?? String(error)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.config.watcher.concurrency, due.length) }, worker));
      // Stopping: hand back the leases of claimed rows not checked, so other instances need not wait them out.
      for (const row of due.slice(i)) await this.store.scheduleCheck(row.id, row.next_check_at, row.checks);
    } catch (error) {
      this.config.log(`[gateway] watcher tick failed: ${(error as Error)?.message ?? String(error)}`);
    } finally {
      this.running = false;
    }
  }
}
