import { PublicKey, type ConfirmedSignatureInfo, type Connection, type Finality } from '@solana/web3.js';
import { assertExpected, checkTransfer } from './check-transfer.js';
import type { Commitment, ExpectedTransfer, TransferCandidate, TransferCheck } from './types.js';

export interface ReferenceScannerOptions {
  /** The commitment a transfer must reach to count (DESIGN §5: 'confirmed' by default, 'finalized' configurable). */
  commitment: Commitment;
  /**
   * Most signatures listed per reference in one scan, newest first, paginated. Default 10,000. If more new
   * signatures than this pile up between two scans, the oldest of them are not seen by that scan.
   */
  signatureLimit?: number;
  /** Signatures asked for per getSignaturesForAddress page (1–1,000). Default min(1,000, signatureLimit). */
  pageSize?: number;
  /**
   * Most transactions read (getTransaction) per reference in one scan, oldest first; the rest are read by the
   * next scans. Bounds the time and cost of one scan when a reference is flooded. Default 1,000.
   */
  readLimit?: number;
  /**
   * References whose checks stay cached; the least recently scanned is dropped beyond this (it then costs a
   * fresh read if scanned again). Bounds memory when the caller never calls forget(). Default 10,000.
   */
  maxCachedReferences?: number;
}

/** What the scanner remembers about one transaction that mentions a reference. */
interface Known {
  check: TransferCheck;
  slot: number;
  blockTime: number | null;
  /** Latest confirmation status the signature list gave. */
  status: 'confirmed' | 'finalized';
  /** Commitment the transaction was read at (or listed at, for failed ones never read). */
  readAt: Finality;
  /** Position in listing order, oldest first; breaks ties within a slot. */
  order: number;
  /** At or below the floor: final, and never listed again. */
  settled: boolean;
}

interface ReferenceState {
  /** The expectation the cached checks were made against; another expectation starts afresh. */
  fingerprint: string;
  known: Map<string, Known>;
  /** Newest signature such that it and everything older are listed, checked and final. */
  floor: string | undefined;
  nextOrder: number;
}

const MAX_PAGE = 1000;
const DEFAULT_SIGNATURE_LIMIT = 10_000;
const DEFAULT_READ_LIMIT = 1000;
const DEFAULT_MAX_CACHED_REFERENCES = 10_000;

/**
 * Finds every transaction that mentions a payment's reference and checks each one (DESIGN §5), oldest first.
 *
 * Cost: every scan lists the reference's signatures newer than the "floor" (the newest signature below which
 * everything is known and final), so a scan where nothing is new costs one getSignaturesForAddress call.
 * A transaction is read once (getTransaction); with commitment 'finalized', a paid or underpaid one is read a
 * second time once finalized, so the money is judged on finalized data. Failed transactions are judged from the
 * signature list alone (their `err`), so spam that fails costs nothing to read. RPC errors are thrown as they are.
 */
export class ReferenceScanner {
  /** RPC requests made so far (each getSignaturesForAddress page and each getTransaction). */
  rpcCalls = 0;

  readonly #connection: Connection;
  readonly #commitment: Commitment;
  readonly #signatureLimit: number;
  readonly #pageSize: number;
  readonly #readLimit: number;
  readonly #maxCachedReferences: number;
  readonly #states = new Map<string, ReferenceState>();
  readonly #inFlight = new Map<string, { fingerprint: string; scan: Promise<TransferCandidate[]> }>();

  constructor(connection: Connection, options: ReferenceScannerOptions) {
    if (options.commitment !== 'confirmed' && options.commitment !== 'finalized') {
      throw new TypeError(`commitment must be 'confirmed' or 'finalized', got ${String(options.commitment)}`);
    }
    const signatureLimit = options.signatureLimit ?? DEFAULT_SIGNATURE_LIMIT;
    const pageSize = options.pageSize ?? Math.min(MAX_PAGE, signatureLimit);
    const readLimit = options.readLimit ?? DEFAULT_READ_LIMIT;
    if (!Number.isInteger(signatureLimit) || signatureLimit < 1) throw new RangeError('signatureLimit must be a positive integer');
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE) throw new RangeError('pageSize must be an integer from 1 to 1000');
    if (!Number.isInteger(readLimit) || readLimit < 1) throw new RangeError('readLimit must be a positive integer');
    const maxCachedReferences = options.maxCachedReferences ?? DEFAULT_MAX_CACHED_REFERENCES;
    if (!Number.isInteger(maxCachedReferences) || maxCachedReferences < 1) throw new RangeError('maxCachedReferences must be a positive integer');
    this.#connection = connection;
    this.#commitment = options.commitment;
    this.#signatureLimit = signatureLimit;
    this.#pageSize = pageSize;
    this.#readLimit = readLimit;
    this.#maxCachedReferences = maxCachedReferences;
  }

  /** How many references have cached checks (for monitoring and tests). */
  get cachedReferences(): number {
    return this.#states.size;
  }

  /** Every transaction found on the reference with its verdict, oldest first. Concurrent scans of one payment share one run. */
  scan(expected: ExpectedTransfer): Promise<TransferCandidate[]> {
    assertExpected(expected);
    const fingerprint = fingerprintOf(expected);
    const running = this.#inFlight.get(expected.reference);
    if (running?.fingerprint === fingerprint) return running.scan;
    const scan = this.#scan(expected, fingerprint).finally(() => {
      if (this.#inFlight.get(expected.reference)?.scan === scan) this.#inFlight.delete(expected.reference);
    });
    this.#inFlight.set(expected.reference, { fingerprint, scan });
    return scan;
  }

  /** Drops what is cached for a reference (call it when its payment is final). */
  forget(reference: string): void {
    this.#states.delete(reference);
  }

  async #scan(expected: ExpectedTransfer, fingerprint: string): Promise<TransferCandidate[]> {
    const reference = new PublicKey(expected.reference);
    let state = this.#states.get(expected.reference);
    if (state?.fingerprint !== fingerprint) state = { fingerprint, known: new Map(), floor: undefined, nextOrder: 0 };
    // Re-inserting keeps the Map in least-recently-scanned order, so the first key is the one to evict.
    this.#states.delete(expected.reference);
    this.#states.set(expected.reference, state);
    while (this.#states.size > this.#maxCachedReferences) this.#states.delete(this.#states.keys().next().value!);

    const { signatures, complete } = await this.#listSignatures(reference, state.floor);
    const oldestFirst = [...signatures].reverse();
    // Oldest first, so a flood of later spam cannot starve the real payment: what is left is read next scan.
    const budget = { reads: this.#readLimit };
    for (const info of oldestFirst) await this.#checkSignature(state, info, expected, budget);

    if (complete) {
      // A confirmed transaction no longer listed above the floor was on a fork that died: forget it.
      const listed = new Set(signatures.map((s) => s.signature));
      for (const [signature, known] of state.known) if (!known.settled && !listed.has(signature)) state.known.delete(signature);
      this.#raiseFloor(state, oldestFirst);
    }
    return this.#candidates(state);
  }

  /** Newest first, down to (not including) the floor, at most signatureLimit of them. */
  async #listSignatures(reference: PublicKey, floor: string | undefined) {
    const signatures: ConfirmedSignatureInfo[] = [];
    let before: string | undefined;
    while (signatures.length < this.#signatureLimit) {
      const limit = Math.min(this.#pageSize, this.#signatureLimit - signatures.length);
      this.rpcCalls += 1;
      // Listed at 'confirmed' even when 'finalized' is required, so a payment shows 'processing' meanwhile.
      const page = await this.#connection.getSignaturesForAddress(reference, { before, until: floor, limit }, 'confirmed');
      signatures.push(...page);
      if (page.length < limit) return { signatures, complete: true };
      before = page[page.length - 1]!.signature;
    }
    return { signatures, complete: false };
  }

  async #checkSignature(state: ReferenceState, info: ConfirmedSignatureInfo, expected: ExpectedTransfer, budget: { reads: number }): Promise<void> {
    const status = info.confirmationStatus === 'finalized' ? 'finalized' : 'confirmed';
    const known = state.known.get(info.signature);
    if (known) {
      known.status = status;
      const needsFinalRead = this.#commitment === 'finalized' && status === 'finalized' && known.readAt !== 'finalized' && known.check.verdict !== 'invalid';
      if (needsFinalRead && budget.reads > 0) {
        budget.reads -= 1;
        const reread = await this.#read(info.signature, 'finalized', expected);
        if (reread) Object.assign(known, reread, { readAt: 'finalized' });
      }
      return;
    }

    if (info.err !== null) {
      // The signature list already says it failed; no need to read it.
      state.known.set(info.signature, {
        check: { verdict: 'invalid', reason: 'transaction_failed', amountReceived: 0n, overpaid: false, payer: null },
        slot: info.slot,
        blockTime: info.blockTime ?? null,
        status,
        readAt: status,
        order: state.nextOrder++,
        settled: false,
      });
      return;
    }
    if (budget.reads <= 0) return;
    budget.reads -= 1;
    const readAt: Finality = this.#commitment === 'finalized' && status === 'finalized' ? 'finalized' : 'confirmed';
    const read = await this.#read(info.signature, readAt, expected);
    // Listed but not yet readable at that commitment (nodes differ by a moment): try again next scan.
    if (!read) return;
    state.known.set(info.signature, { ...read, status, readAt, order: state.nextOrder++, settled: false });
  }

  async #read(signature: string, commitment: Finality, expected: ExpectedTransfer) {
    this.rpcCalls += 1;
    const tx = await this.#connection.getTransaction(signature, { commitment, maxSupportedTransactionVersion: 0 });
    if (!tx) return null;
    return { check: checkTransfer(tx, expected), slot: tx.slot, blockTime: tx.blockTime ?? null };
  }

  /** Final for good: finalized, and (where money is judged) read at finalized. */
  #isDone(known: Known): boolean {
    if (known.status !== 'finalized') return false;
    return this.#commitment === 'confirmed' || known.readAt === 'finalized' || known.check.verdict === 'invalid';
  }

  /** Moves the floor up over the oldest run of listed signatures that are checked and final. */
  #raiseFloor(state: ReferenceState, oldestFirst: ConfirmedSignatureInfo[]): void {
    for (const info of oldestFirst) {
      const known = state.known.get(info.signature);
      if (!known || !this.#isDone(known)) return;
      known.settled = true;
      state.floor = info.signature;
    }
  }

  #candidates(state: ReferenceState): TransferCandidate[] {
    return [...state.known.entries()]
      .sort(([, a], [, b]) => a.slot - b.slot || a.order - b.order)
      .map(([signature, known]) => ({
        signature,
        ...known.check,
        slot: known.slot,
        blockTime: known.blockTime,
        // Listing happens at 'confirmed', so everything listed has reached 'confirmed'.
        reachedCommitment: this.#commitment === 'confirmed' || this.#isDone(known),
      }));
  }
}

function fingerprintOf(expected: ExpectedTransfer): string {
  return JSON.stringify([expected.reference, expected.recipient, expected.mint, String(expected.amount), expected.memo]);
}
