/**
 * Remembers webhook-ids already processed so a redelivered event is acknowledged without running
 * the merchant's code twice. Pluggable: with several server instances, back it with Redis or a
 * table (and keep the merchant's own writes idempotent too: delivery is at-least-once).
 */
export interface SeenStore {
  has(id: string): boolean | Promise<boolean>;
  /** Called only after onEvent succeeded. */
  add(id: string): void | Promise<void>;
}

export interface MemorySeenStoreOptions {
  /** Most ids kept; the oldest go first (default 10 000). */
  maxSize?: number;
  /** How long an id is remembered, in ms (default 24 h). */
  ttl?: number;
}

/** In-process default: bounded in size and age, no timers (expired ids are dropped as it is used). */
export class MemorySeenStore implements SeenStore {
  private readonly ids = new Map<string, number>();
  private readonly maxSize: number;
  private readonly ttl: number;

  constructor(options: MemorySeenStoreOptions = {}, private readonly now: () => number = Date.now) {
    this.maxSize = options.maxSize ?? 10_000;
    this.ttl = options.ttl ?? 24 * 60 * 60 * 1000;
    if (!(Number.isInteger(this.maxSize) && this.maxSize > 0)) throw new TypeError('maxSize must be a positive integer');
    if (!(this.ttl > 0)) throw new TypeError('ttl must be a positive number of ms');
  }

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    const expires = this.ids.get(id);
    if (expires === undefined) return false;
    if (expires <= this.now()) {
      this.ids.delete(id);
      return false;
    }
    return true;
  }

  add(id: string): void {
    this.ids.delete(id); // re-insert at the end: Map keeps insertion order, oldest first
    this.ids.set(id, this.now() + this.ttl);
    this.evict();
  }

  private evict(): void {
    const now = this.now();
    for (const [id, expires] of this.ids) {
      if (this.ids.size <= this.maxSize && expires > now) break;
      this.ids.delete(id);
    }
  }
}
