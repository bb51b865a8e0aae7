/**
 * Polls public verify while the element is on the page (DESIGN §7). One timer at most, ever:
 * disconnecting stops it, reconnecting (e.g. moving the element) resumes the same poller.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isFinalStatus } from '../core/payment.js';
import type { PublicPayment } from '../core/payment.js';
import { verifyPayment } from './api.js';
import { CheckoutError } from './errors.js';
import type { Session } from './session.js';

export interface PollerCallbacks {
  onPayment(payment: PublicPayment): void;
  /** true while the gateway cannot be reached (the session is kept and polling goes on). */
  onReconnecting(reconnecting: boolean): void;
  /** A refusal that asking again will not fix (401, 404...): polling stops. */
  onFatal(error: CheckoutError): void;
}

/** About 1 s for the first 20 s, then slowing linearly to 5 s at one minute. */
export function pollInterval(elapsedMs: number): number {
  return Math.round(Math.min(5000, Math.max(1000, 1000 + (elapsedMs - 20_000) / 10)));
}

/** Exponential back-off for unreachable gateways: 1, 2, 4 ... up to 30 s, with jitter so tabs spread out. */
export function failureDelay(failures: number, random = Math.random()): number {
  return Math.round(Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1)) * (0.8 + 0.4 * random));
}

const HURRY_MS = 500;
const HURRY_FOR_MS = 15_000;

export class Poller implements ReactiveController {
  private session: Session | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inflight: AbortController | null = null;
  private startedAt = 0;
  private failures = 0;
  private connected = false;
  private stopped = true;
  /** Until this time, poll every HURRY_MS: a wallet just sent the payment, or the gateway has seen it. */
  private hurryUntil = 0;

  constructor(
    host: ReactiveControllerHost,
    private readonly callbacks: PollerCallbacks,
  ) {
    host.addController(this);
  }

  /** Starts polling a new session (replacing any previous one). */
  start(session: Session): void {
    this.halt();
    this.session = session;
    this.startedAt = Date.now();
    this.failures = 0;
    this.stopped = isFinalStatus(session.payment.status);
    if (!this.stopped) this.schedule(pollInterval(0));
  }

  /** Stops for good (final status, fatal error, or a new session coming). */
  stop(): void {
    this.stopped = true;
    this.halt();
  }

  /**
   * Polls every HURRY_MS for the next HURRY_FOR_MS (a wallet says it sent the transaction). The first ask
   * waits one interval: the transaction needs a moment to land, and the gateway throttles its chain
   * checks per payment, so asking at once would only spend that check too early.
   */
  hurry(): void {
    this.hurryUntil = Date.now() + HURRY_FOR_MS;
    if (!this.stopped && this.session) this.schedule(HURRY_MS);
  }

  /** Asks now instead of at the next tick (e.g. the countdown reached zero, or the tab came back). */
  pollNow(): void {
    if (this.stopped || !this.session) return;
    this.schedule(0);
  }

  get running(): boolean {
    return !this.stopped && this.connected;
  }

  hostConnected(): void {
    this.connected = true;
    document.addEventListener('visibilitychange', this.onVisibility);
    if (!this.stopped && this.session) this.schedule(0);
  }

  hostDisconnected(): void {
    this.connected = false;
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.halt();
  }

  private readonly onVisibility = (): void => {
    if (document.hidden) this.halt();
    else this.pollNow();
  };

  private halt(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.inflight?.abort();
    this.inflight = null;
  }

  private schedule(delay: number): void {
    this.halt();
    if (!this.connected || document.hidden || this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), delay);
  }

  private async tick(): Promise<void> {
    const session = this.session;
    if (!session) return;
    const ctrl = new AbortController();
    this.inflight = ctrl;
    let next: number;
    try {
      const payment = await verifyPayment(session.baseUrl, session.paymentId, session.paymentToken, ctrl.signal);
      if (ctrl.signal.aborted) return;
      if (this.failures) this.callbacks.onReconnecting(false);
      this.failures = 0;
      this.callbacks.onPayment(payment);
      if (isFinalStatus(payment.status)) return this.stop();
      if (payment.status === 'processing') this.hurryUntil = Math.max(this.hurryUntil, Date.now() + HURRY_FOR_MS);
      next = Date.now() < this.hurryUntil ? HURRY_MS : pollInterval(Date.now() - this.startedAt);
    } catch (err) {
      if (ctrl.signal.aborted) return;
      if (!(err instanceof CheckoutError)) throw err;
      if (err.status === 429) {
        // Honour the server's wish, within reason.
        next = Math.min(120, Math.max(1, err.retryAfter ?? 5)) * 1000;
      } else if (err.status === 0 || (err.status ?? 0) >= 500 || err.status === 408) {
        this.failures++;
        if (this.failures === 1) this.callbacks.onReconnecting(true);
        next = failureDelay(this.failures);
      } else {
        this.stop();
        this.callbacks.onFatal(err);
        return;
      }
    } finally {
      if (this.inflight === ctrl) this.inflight = null;
    }
    if (this.session === session) this.schedule(next);
  }
}
