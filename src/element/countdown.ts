/**
 * The countdown to expiresAt. The customer's clock may be minutes off, so the time left is measured
 * on the server's clock: skew = serverTime − local time when the answer arrived.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Milliseconds to add to the local clock to read the server's clock. */
export function clockSkew(serverTime: string | undefined, receivedAt: number): number {
  const server = serverTime ? Date.parse(serverTime) : NaN;
  return Number.isNaN(server) ? 0 : server - receivedAt;
}

export function remainingMs(expiresAt: string, skew: number, now: number): number {
  const end = Date.parse(expiresAt);
  return Number.isNaN(end) ? 0 : Math.max(0, end - (now + skew));
}

/** "14:59", or "1:02:03" past an hour. Digits only, so every locale reads it. */
export function formatRemaining(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Re-renders its host every second while running; calls onZero once when the time is up. */
export class Countdown implements ReactiveController {
  private timer: ReturnType<typeof setInterval> | undefined;
  private expiresAt: string | null = null;
  private skew = 0;
  private zeroed = false;
  private connected = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly onZero: () => void,
  ) {
    host.addController(this);
  }

  /** Follows a payment: its expiry and the server time of the answer that carried it. */
  set(expiresAt: string | null, serverTime: string | undefined, receivedAt = Date.now()): void {
    if (expiresAt !== this.expiresAt) this.zeroed = false;
    this.expiresAt = expiresAt;
    if (serverTime) this.skew = clockSkew(serverTime, receivedAt);
    this.sync();
  }

  get remaining(): number {
    return this.expiresAt ? remainingMs(this.expiresAt, this.skew, Date.now()) : 0;
  }

  get text(): string {
    return formatRemaining(this.remaining);
  }

  hostConnected(): void {
    this.connected = true;
    this.sync();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.sync();
  }

  private sync(): void {
    const run = this.connected && this.expiresAt != null && !this.zeroed;
    if (run && !this.timer) this.timer = setInterval(this.tick, 1000);
    if (!run && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private readonly tick = (): void => {
    this.host.requestUpdate();
    if (this.remaining <= 0 && !this.zeroed) {
      this.zeroed = true;
      this.sync();
      this.onZero();
    }
  };
}
