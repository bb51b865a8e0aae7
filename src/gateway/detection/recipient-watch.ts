/**
 * The fast detection path (docs/gateway.md, "Detection"). Instead of listing every pending payment's
 * reference often, it lists the few addresses that receive the money: the merchant wallet (SOL) and
 * its token account for each mint with a pending payment. Each tick asks each address only for the
 * signatures newer than the last one seen, reads those new transactions once, and when one carries
 * the reference of a pending payment, asks for an immediate check of that payment. Its cost grows
 * with the number of receiving addresses (merchants × currencies) and with real traffic, not with
 * the number of pending payments.
 *
 * It only ever triggers checks: the per-reference scan (chain/reference-scanner.ts) stays the one
 * authority on whether a payment is paid, and keeps running at a slower rate as the fallback for
 * whatever this path misses (a tick's page overflowing, a restart, an RPC error).
 */
import { PublicKey, type ConfirmedSignatureInfo, type Connection } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { getMintInfo } from '../chain/mint.js';
import { viewTransaction } from '../chain/transaction-view.js';
import { PeriodicTask } from '../periodic.js';

/** What the watch needs to know about a pending payment. */
export interface WatchedPayment {
  id: string;
  reference: string;
  /** The merchant wallet (owner). */
  recipient: string;
  /** Token mint; null for SOL. */
  mint: string | null;
  /** ISO time; on the first listing of an address, older transactions are skipped. */
  createdAt: string;
}

export interface RecipientWatchOptions {
  tickMs: number;
  /** Signatures listed per address per tick. More than this between two ticks: the older ones are left to the fallback. */
  pageSize: number;
  /** A payment no check has reported for this long is dropped (it is settled, or another instance checks it). */
  staleMs: number;
  /** Called for each (payment, new transaction) that carries the payment's reference. */
  onMatch: (paymentId: string, signature: string) => void;
  log: (line: string) => void;
  now?: () => number;
}

interface Watched {
  payment: WatchedPayment;
  seenAt: number;
  /** Where its money arrives, once known (deriving a token account address costs a hash search). */
  address?: string;
}

interface WatchedAddress {
  key: PublicKey;
  /** Newest signature already listed; undefined until the first listing. */
  cursor: string | undefined;
  listed: boolean;
  /** reference → payment id, for the payments paid into this address. */
  references: Map<string, string>;
  /** Oldest creation time of those payments (ms). */
  since: number;
  /** Listed but not yet readable at 'confirmed' (nodes differ by a moment): signature → attempts left. */
  unread: Map<string, number>;
}

const READ_ATTEMPTS = 5;

export class RecipientWatch {
  /** RPC requests made (getSignaturesForAddress and getTransaction), for tests and benchmarks. */
  rpcCalls = 0;
  /** Matches reported (for tests and benchmarks). */
  matches = 0;

  private readonly payments = new Map<string, Watched>();
  private readonly addresses = new Map<string, WatchedAddress>();
  private readonly mintPrograms = new Map<string, string>();
  private readonly now: () => number;
  /** Fixed rate: a tick starts every tickMs, however long the last one took (at once if longer). */
  private readonly loop = new PeriodicTask(() => this.tick(), (elapsed) => Math.max(0, this.options.tickMs - elapsed));

  constructor(
    private readonly connection: Connection,
    private readonly options: RecipientWatchOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Watch (or keep watching) a pending payment. Called on creation and after each check that leaves it pending. */
  watch(payment: WatchedPayment): void {
    const known = this.payments.get(payment.id);
    if (known && known.payment.reference === payment.reference) known.seenAt = this.now();
    else this.payments.set(payment.id, { payment, seenAt: this.now() });
  }

  /** Stop watching a payment (it is no longer pending). */
  unwatch(paymentId: string): void {
    this.payments.delete(paymentId);
  }

  /** How many payments and addresses are watched (for tests and monitoring). */
  get size(): { payments: number; addresses: number } {
    return { payments: this.payments.size, addresses: this.addresses.size };
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: list each receiving address once and read what is new. */
  async tick(): Promise<void> {
    try {
      await this.regroup();
      await Promise.all([...this.addresses.values()].map((a) => this.poll(a)));
    } catch (error) {
      this.options.log(`[gateway] recipient watch tick failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  /** Rebuilds address → references from the watched payments, keeping each address's cursor. */
  private async regroup(): Promise<void> {
    const now = this.now();
    const groups = new Map<string, { references: Map<string, string>; since: number }>();
    // A mint whose program could not be read is not asked again for every payment in this tick.
    const unreadable = new Set<string>();
    for (const [id, w] of this.payments) {
      if (now - w.seenAt > this.options.staleMs) {
        this.payments.delete(id);
        continue;
      }
      if (w.address === undefined && w.payment.mint !== null && unreadable.has(w.payment.mint)) continue;
      w.address ??= await this.addressOf(w.payment);
      if (w.address === undefined && w.payment.mint !== null) unreadable.add(w.payment.mint);
      const address = w.address;
      if (!address) continue;
      const g = groups.get(address) ?? { references: new Map(), since: Infinity };
      g.references.set(w.payment.reference, id);
      g.since = Math.min(g.since, Date.parse(w.payment.createdAt));
      groups.set(address, g);
    }
    for (const address of this.addresses.keys()) if (!groups.has(address)) this.addresses.delete(address);
    for (const [address, g] of groups) {
      const known = this.addresses.get(address);
      if (known) {
        known.references = g.references;
        known.since = g.since;
      } else {
        this.addresses.set(address, { key: new PublicKey(address), cursor: undefined, listed: false, unread: new Map(), ...g });
      }
    }
  }

  /** The address a payment's money arrives at: the wallet for SOL, its associated token account for a token. */
  private async addressOf(p: WatchedPayment): Promise<string | undefined> {
    if (p.mint === null) return p.recipient;
    let program = this.mintPrograms.get(p.mint);
    if (!program) {
      try {
        this.rpcCalls++;
        program = (await getMintInfo(this.connection, p.mint)).programId;
      } catch {
        return undefined; // RPC down or not a mint: the fallback scan still covers the payment
      }
      this.mintPrograms.set(p.mint, program);
    }
    return getAssociatedTokenAddressSync(new PublicKey(p.mint), new PublicKey(p.recipient), true, new PublicKey(program)).toBase58();
  }

  private async poll(a: WatchedAddress): Promise<void> {
    let listed: ConfirmedSignatureInfo[];
    try {
      this.rpcCalls++;
      listed = await this.connection.getSignaturesForAddress(a.key, { until: a.cursor, limit: this.options.pageSize }, 'confirmed');
    } catch (error) {
      this.options.log(`[gateway] recipient watch: listing ${a.key.toBase58()} failed: ${(error as Error)?.message ?? String(error)}`);
      return;
    }
    const first = !a.listed;
    a.listed = true;
    if (listed.length > 0) a.cursor = listed[0]!.signature;
    for (const info of listed) {
      if (info.err !== null) continue; // failed: it paid nothing
      // First listing of this address: what happened before its payments existed cannot pay them.
      if (first && info.blockTime != null && info.blockTime * 1000 < a.since - 60_000) continue;
      a.unread.set(info.signature, READ_ATTEMPTS);
    }
    await Promise.all([...a.unread.keys()].map((signature) => this.read(a, signature)));
  }

  private async read(a: WatchedAddress, signature: string): Promise<void> {
    let keys: string[];
    try {
      this.rpcCalls++;
      const tx = await this.connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
      if (!tx) {
        const left = (a.unread.get(signature) ?? 1) - 1;
        if (left <= 0) a.unread.delete(signature);
        else a.unread.set(signature, left);
        return;
      }
      keys = viewTransaction(tx).accountKeys;
    } catch {
      const left = (a.unread.get(signature) ?? 1) - 1;
      if (left <= 0) a.unread.delete(signature);
      else a.unread.set(signature, left);
      return;
    }
    a.unread.delete(signature);
    for (const key of keys) {
      const paymentId = a.references.get(key);
      if (paymentId) {
        this.matches++;
        this.options.onMatch(paymentId, signature);
      }
    }
  }
}
