/**
 * A background loop: runs `pass` once at start, then again `delayAfter(elapsedMs)` after each pass
 * ends, until stopped. One pass at a time; stop() waits for the pass in flight, so a closing gateway
 * never writes after its store is closed. Timers are unref'd: a loop never keeps the process alive.
 * Used by the watcher, the recipient watch and the webhook worker.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private idle: Promise<void> = Promise.resolve();
  private running = false;
  private again = false;
  private isStopped = true;

  constructor(
    private readonly pass: () => Promise<void>,
    /** Delay before the next pass, given how long the last one took (fixed delay, or fixed rate). */
    private readonly delayAfter: (elapsedMs: number) => number,
  ) {}

  get stopped(): boolean {
    return this.isStopped;
  }

  start(): void {
    this.isStopped = false;
    this.schedule(0);
  }

  /** Stops scheduling at once (synchronously); the promise settles when the pass in flight ends. */
  stop(): Promise<void> {
    this.isStopped = true;
    if (this.timer) clearTimeout(this.timer);
    return this.idle;
  }

  /** Run a pass as soon as possible: now if idle, right after the current one if a pass is running. */
  wake(): void {
    if (this.isStopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.isStopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.running = true;
      this.idle = this.pass().finally(() => {
        this.running = false;
        const soon = this.again;
        this.again = false;
        this.schedule(soon ? 0 : this.delayAfter(Date.now() - started));
      });
    }, ms);
    this.timer.unref?.();
  }
}
