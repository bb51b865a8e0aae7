/**
 * The local chain: litesvm executes real signed transactions; this class adds what a
 * validator and its RPC node keep and litesvm does not: advancing slots with their own
 * blockhashes, commitment levels, balances and token balances recorded around every
 * transaction, full transaction records, and a signature index per account key.
 *
 * Commitment model: the slot advances every `slotMs`. A transaction executes in the
 * current slot and is `confirmed` at once (there is no separate `processed` stage);
 * it is `finalized` once the current slot is `finalizationDepth` slots past it.
 */
import { createPublicKey, verify } from 'node:crypto';
import {
  AddressLookupTableAccount,
  PublicKey,
  VersionedTransaction,
  type AccountInfo,
} from '@solana/web3.js';
import { LiteSVM, FailedTransactionMetadata } from 'litesvm';
import { MINT_SIZE, MintLayout, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { associatedAccountData, planAtaSteps, withoutAtaInstructions } from './ata-emulation.js';
import { runWithAtaEmulation, type Ledger } from './ata-runner.js';
import { feeOf, innerOf, memoOf, returnDataOf, toAccountInfo, type CompiledInner, type Execution } from './execution.js';
import { describeTransactionError, namedError, type DescribedError, type TransactionErrorJson } from './tx-error.js';
import { decodeMint, decodeTokenAccount, uiTokenAmount, type UiTokenAmount } from './token-state.js';
import { encodeBase58 } from '../core/base58.js';
import { faucetKeypair, usdcMintAuthority, usdcMintKeypair, LOCALNET_USDC_DECIMALS } from './dev-keys.js';

export type Commitment = 'processed' | 'confirmed' | 'finalized';
export type { CompiledInner } from './execution.js';

/** Blockhashes stay valid for this many slots, as on mainnet (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY_SLOTS = 150;
/** Without searchTransactionHistory a node only looks in its recent status cache. */
export const STATUS_CACHE_SLOTS = 300;
const MEMO_V2 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
const MEMO_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';
const MAX_SLOT_HASHES = 512;
/** Slots (about an hour at 400 ms) whose blocks are kept even when they hold no transaction. */
const RETAINED_EMPTY_SLOTS = 10_000;
const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: UiTokenAmount;
}

export interface TxRecord {
  signature: string;
  slot: number;
  blockTime: number;
  transaction: VersionedTransaction;
  /** Static keys, then lookup-table writable, then lookup-table readonly (the runtime's order). */
  accountKeys: PublicKey[];
  loadedAddresses: { writable: PublicKey[]; readonly: PublicKey[] };
  err: TransactionErrorJson | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logMessages: string[];
  innerInstructions: Array<{ index: number; instructions: CompiledInner[] }>;
  computeUnitsConsumed: bigint;
  returnData: { programId: string; data: Uint8Array } | null;
  /** getSignaturesForAddress's memo field: "[len] text" per memo instruction, joined by "; ". */
  memo: string | null;
  /** Position in the ledger (1, 2, ...): orders transactions within a slot for paging. */
  sequence: number;
}

/** What happened to a transaction handed to the chain. */
export type SendOutcome =
  | { landed: true; record: TxRecord }
  | { landed: false; error: DescribedError; logs: string[]; unitsConsumed: bigint };

export interface SimulationResult {
  error: DescribedError | null;
  logs: string[];
  unitsConsumed: bigint;
  returnData: { programId: string; data: Uint8Array } | null;
  innerInstructions: Array<{ index: number; instructions: CompiledInner[] }>;
  postAccounts: Map<string, AccountInfo<Uint8Array>>;
}

export interface ChainOptions {
  slotMs?: number;
  finalizationDepth?: number;
}

export class LocalChain {
  readonly slotMs: number;
  readonly finalizationDepth: number;
  readonly genesisHash: string;
  private readonly svm: LiteSVM;
  private currentSlot = 0;
  private readonly slotBlockhash = new Map<number, string>();
  private readonly blockhashSlot = new Map<string, number>();
  private readonly slotTime = new Map<number, number>();
  private readonly records = new Map<string, TxRecord>();
  private readonly byAddress = new Map<string, TxRecord[]>();
  private readonly bySlot = new Map<number, TxRecord[]>();
  /**
   * For accounts changed in slots that are not finalized yet: their state before the first such
   * change, oldest first. A `finalized` read returns that state; entries go once their slot is final.
   */
  private readonly unfinalized = new Map<string, Array<{ slot: number; before: AccountInfo<Uint8Array> | null }>>();
  private readonly unfinalizedQueue: Array<{ slot: number; key: string }> = [];
  /** Every account key any transaction touched: lets getTokenAccountsByOwner scan without an index in litesvm. */
  private readonly touched = new Set<string>();
  private transactionCount = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly transactionListeners = new Set<(record: TxRecord) => void>();
  private readonly slotListeners = new Set<(slot: number) => void>();

  constructor(options: ChainOptions = {}) {
    this.slotMs = options.slotMs ?? 400;
    this.finalizationDepth = options.finalizationDepth ?? 32;
    // Signatures and blockhash age are checked here, as a node's RPC layer and bank do,
    // so that simulateTransaction can run unsigned transactions like a real node.
    this.svm = new LiteSVM().withSigverify(false).withBlockhashCheck(false);
    this.replaceCrashingPrograms();
    this.genesisHash = this.svm.latestBlockhash();
    this.recordSlot(0, this.genesisHash);
    this.setClock();
    this.seedAccounts();
  }

  /** Starts advancing slots on a timer (unref'd: the RPC server keeps the process alive). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.advanceSlot(), this.slotMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Moves to the next slot with a fresh blockhash. Public so tools can step the chain. */
  advanceSlot(): void {
    this.currentSlot += 1;
    this.setClock();
    this.svm.expireBlockhash();
    this.recordSlot(this.currentSlot, this.svm.latestBlockhash());
    this.pushSlotHash();
    this.forgetFinalizedChanges();
    for (const listener of this.slotListeners) notifySafely(listener, this.currentSlot);
  }

  /** Called after each recorded transaction; returns a function that removes the listener. */
  onTransaction(listener: (record: TxRecord) => void): () => void {
    this.transactionListeners.add(listener);
    return () => this.transactionListeners.delete(listener);
  }

  /** Called after each new slot; returns a function that removes the listener. */
  onSlot(listener: (slot: number) => void): () => void {
    this.slotListeners.add(listener);
    return () => this.slotListeners.delete(listener);
  }

  /** The SlotHashes sysvar must list recent slots: creating a lookup table names one of them. */
  private pushSlotHash(): void {
    const hashes = this.svm.getSlotHashes();
    // litesvm's SlotHash has no constructor; a fresh copy from the getter serves as the new entry.
    const entry = this.svm.getSlotHashes()[0];
    if (!entry) return;
    entry.slot = BigInt(this.currentSlot);
    entry.hash = this.svm.latestBlockhash();
    this.svm.setSlotHashes([entry, ...hashes].slice(0, MAX_SLOT_HASHES));
  }

  // ---- slots, heights, blockhashes -------------------------------------------------

  /** The newest slot at a commitment level. Block height equals slot: no slot is ever skipped. */
  slot(commitment: Commitment = 'finalized'): number {
    return commitment === 'finalized' ? Math.max(0, this.currentSlot - this.finalizationDepth) : this.currentSlot;
  }

  isFinalized(slot: number): boolean {
    return this.currentSlot - slot >= this.finalizationDepth;
  }

  epoch(): { epoch: number; slotIndex: number; slotsInEpoch: number } {
    const slotsInEpoch = Number(this.svm.getEpochSchedule().slotsPerEpoch);
    return { epoch: Math.floor(this.currentSlot / slotsInEpoch), slotIndex: this.currentSlot % slotsInEpoch, slotsInEpoch };
  }

  get totalTransactions(): number {
    return this.transactionCount;
  }

  latestBlockhash(commitment: Commitment = 'finalized'): { blockhash: string; lastValidBlockHeight: number; slot: number } {
    const slot = this.slot(commitment);
    const blockhash = this.slotBlockhash.get(slot) as string;
    return { blockhash, lastValidBlockHeight: slot + BLOCKHASH_VALIDITY_SLOTS, slot };
  }

  isBlockhashValid(blockhash: string): boolean {
    const slot = this.blockhashSlot.get(blockhash);
    return slot !== undefined && this.currentSlot - slot <= BLOCKHASH_VALIDITY_SLOTS;
  }

  /** The blockhash of a slot (blocks are never skipped, so every slot up to the current one has one). */
  blockhashAt(slot: number): string | null {
    return this.slotBlockhash.get(slot) ?? null;
  }

  /** Transactions of a slot's block, in execution order. */
  recordsInSlot(slot: number): readonly TxRecord[] {
    return this.bySlot.get(slot) ?? [];
  }

  /** litesvm's epoch schedule, for getEpochSchedule. */
  epochSchedule(): { firstNormalEpoch: number; firstNormalSlot: number; leaderScheduleSlotOffset: number; slotsPerEpoch: number; warmup: boolean } {
    const schedule = this.svm.getEpochSchedule();
    return {
      firstNormalEpoch: Number(schedule.firstNormalEpoch),
      firstNormalSlot: Number(schedule.firstNormalSlot),
      leaderScheduleSlotOffset: Number(schedule.leaderScheduleSlotOffset),
      slotsPerEpoch: Number(schedule.slotsPerEpoch),
      warmup: schedule.warmup,
    };
  }

  blockTime(slot: number): number | null {
    return this.slotTime.get(slot) ?? null;
  }

  // ---- accounts ---------------------------------------------------------------------

  /**
   * The account as a read at this commitment sees it: `finalized` reads show the state at the
   * newest finalized slot (changes made since are not visible yet), others the latest state.
   */
  getAccountAt(address: PublicKey, commitment: Commitment): AccountInfo<Uint8Array> | null {
    if (commitment === 'finalized') {
      const pending = this.unfinalized.get(address.toBase58())?.[0];
      if (pending) return pending.before && pending.before.lamports > 0 ? pending.before : null;
    }
    return this.getAccount(address);
  }

  getAccount(address: PublicKey): AccountInfo<Uint8Array> | null {
    const account = this.svm.getAccount(address);
    // litesvm keeps zero-lamport accounts around; a real node reports them as absent.
    if (!account || account.lamports === 0) return null;
    return account;
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  /** Addresses seen in any transaction, for scans such as getTokenAccountsByOwner. */
  knownAddresses(): string[] {
    return [...this.touched];
  }

  // ---- transactions -------------------------------------------------------------------

  getRecord(signature: string): TxRecord | undefined {
    return this.records.get(signature);
  }

  /** Records that mention the address (any key, lookup-table keys included), oldest first. */
  recordsFor(address: string): readonly TxRecord[] {
    return this.byAddress.get(address) ?? [];
  }

  /** Checks every signature against its signer key, as a node does before accepting a transaction. */
  verifySignatures(tx: VersionedTransaction): boolean {
    const message = tx.message.serialize();
    const signers = tx.message.staticAccountKeys.slice(0, tx.message.header.numRequiredSignatures);
    if (tx.signatures.length !== signers.length) return false;
    return signers.every((key, i) => {
      const der = Buffer.concat([ED25519_SPKI_PREFIX, key.toBuffer()]);
      return verify(null, message, createPublicKey({ key: der, format: 'der', type: 'spki' }), tx.signatures[i] as Uint8Array);
    });
  }

  /** Runs the transaction without committing anything. */
  simulate(tx: VersionedTransaction, options: { replaceRecentBlockhash?: boolean } = {}): SimulationResult {
    const refused = this.refusal(tx);
    if (refused) throw new Error(refused);
    if (!options.replaceRecentBlockhash && !this.isBlockhashValid(tx.message.recentBlockhash)) {
      return { ...emptySimulation(), error: namedError('BlockhashNotFound') };
    }
    if (this.records.has(signatureOf(tx)) && !isUnsigned(tx)) {
      return { ...emptySimulation(), error: namedError('AlreadyProcessed') };
    }
    const { accountKeys, tables } = this.resolveKeys(tx);
    const steps = planAtaSteps(tx, accountKeys, (key) => this.getAccount(key));
    if (Array.isArray(steps)) {
      const run = runWithAtaEmulation(this.ledger(), tx, steps, tables, accountKeys, false);
      return { error: run.error, logs: run.logs, unitsConsumed: run.unitsConsumed, returnData: run.returnData, innerInstructions: run.innerInstructions, postAccounts: run.postAccounts };
    }
    const result = this.svm.simulateTransaction(tx);
    if (result instanceof FailedTransactionMetadata) {
      const meta = result.meta();
      return {
        error: describeTransactionError(result.err()),
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        returnData: returnDataOf(meta),
        innerInstructions: innerOf(meta),
        postAccounts: new Map(),
      };
    }
    const meta = result.meta();
    return {
      error: null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData: returnDataOf(meta),
      innerInstructions: innerOf(meta),
      postAccounts: new Map(result.postAccounts().map(([key, account]) => [key.toBase58(), toAccountInfo(account)])),
    };
  }

  /** Executes the transaction in the current slot; records it when it lands (succeeded or failed with the fee charged). */
  send(tx: VersionedTransaction): SendOutcome {
    const refused = this.refusal(tx);
    if (refused) throw new Error(refused);
    const signature = signatureOf(tx);
    if (this.records.has(signature)) return notLanded(namedError('AlreadyProcessed'));
    if (!this.isBlockhashValid(tx.message.recentBlockhash)) return notLanded(namedError('BlockhashNotFound'));

    const { accountKeys, loaded, tables } = this.resolveKeys(tx);
    const before = this.snapshot(accountKeys);
    const preBalances = accountKeys.map((key) => this.svm.getBalance(key) ?? 0n);
    const preTokenBalances = this.tokenBalances(accountKeys);

    let run: Execution;
    const steps = planAtaSteps(tx, accountKeys, (key) => this.getAccount(key));
    if (Array.isArray(steps)) {
      run = runWithAtaEmulation(this.ledger(), tx, steps, tables, accountKeys, true);
    } else {
      const result = this.svm.sendTransaction(tx);
      const failed = result instanceof FailedTransactionMetadata;
      const meta = failed ? result.meta() : result;
      const charged = (preBalances[0] as bigint) - (this.svm.getBalance(accountKeys[0] as PublicKey) ?? 0n);
      run = {
        // A failed transaction lands (and shows up on chain) only if its fee was charged.
        landed: !failed || charged > 0n,
        error: failed ? describeTransactionError(result.err()) : null,
        fee: failed ? charged : feeOf(meta, tx),
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        innerInstructions: innerOf(meta),
        returnData: returnDataOf(meta),
        postAccounts: new Map(),
      };
    }
    this.noteChanges(before);
    if (!run.landed) {
      return { landed: false, error: run.error ?? namedError('InsufficientFundsForFee'), logs: run.logs, unitsConsumed: run.unitsConsumed };
    }
    const record: TxRecord = {
      signature,
      slot: this.currentSlot,
      blockTime: this.blockTime(this.currentSlot) ?? Math.floor(Date.now() / 1000),
      transaction: tx,
      accountKeys,
      loadedAddresses: loaded,
      err: run.error?.json ?? null,
      fee: run.fee,
      preBalances,
      postBalances: accountKeys.map((key) => this.svm.getBalance(key) ?? 0n),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(accountKeys),
      logMessages: run.logs,
      innerInstructions: run.innerInstructions,
      computeUnitsConsumed: run.unitsConsumed,
      returnData: run.returnData,
      memo: memoOf(tx),
      sequence: this.transactionCount + 1,
    };
    this.store(record);
    return { landed: true, record };
  }

  private ledger(): Ledger {
    return {
      svm: this.svm,
      getAccount: (key) => this.getAccount(key),
      minimumBalanceForRentExemption: (size) => this.minimumBalanceForRentExemption(size),
      resolveKeys: (tx) => this.resolveKeys(tx),
    };
  }

  private snapshot(keys: PublicKey[]): Map<string, AccountInfo<Uint8Array> | null> {
    return new Map(keys.map((key) => [key.toBase58(), this.getAccount(key)]));
  }

  /** Remembers, for `finalized` reads, the pre-change state of every account that changed now. */
  private noteChanges(before: Map<string, AccountInfo<Uint8Array> | null>): void {
    for (const [key, previous] of before) {
      if (sameAccount(previous, this.getAccount(new PublicKey(key)))) continue;
      const list = this.unfinalized.get(key) ?? [];
      // Only the first change in a slot matters: its `before` is the state at the previous slot.
      if (list.at(-1)?.slot === this.currentSlot) continue;
      list.push({ slot: this.currentSlot, before: previous });
      this.unfinalized.set(key, list);
      this.unfinalizedQueue.push({ slot: this.currentSlot, key });
    }
  }

  private forgetFinalizedChanges(): void {
    while (this.unfinalizedQueue.length && this.isFinalized((this.unfinalizedQueue[0] as { slot: number }).slot)) {
      const { key } = this.unfinalizedQueue.shift() as { slot: number; key: string };
      const list = this.unfinalized.get(key);
      list?.shift();
      if (list && list.length === 0) this.unfinalized.delete(key);
    }
  }

  private store(record: TxRecord): void {
    this.records.set(record.signature, record);
    const inSlot = this.bySlot.get(record.slot);
    if (inSlot) inSlot.push(record);
    else this.bySlot.set(record.slot, [record]);
    this.transactionCount += 1;
    for (const key of new Set(record.accountKeys.map((k) => k.toBase58()))) {
      this.touched.add(key);
      const list = this.byAddress.get(key);
      if (list) list.push(record);
      else this.byAddress.set(key, [record]);
    }
    for (const listener of this.transactionListeners) notifySafely(listener, record);
  }

  /** All account keys (static, then lookup-table writable, then readonly) and the tables used. */
  private resolveKeys(tx: VersionedTransaction): {
    accountKeys: PublicKey[];
    loaded: { writable: PublicKey[]; readonly: PublicKey[] };
    tables: AddressLookupTableAccount[];
  } {
    const tables: AddressLookupTableAccount[] = [];
    let loaded: { writable: PublicKey[]; readonly: PublicKey[] } = { writable: [], readonly: [] };
    // A missing or broken table leaves the keys unresolved; litesvm then rejects the transaction.
    try {
      for (const lookup of tx.message.addressTableLookups) {
        const account = this.svm.getAccount(lookup.accountKey);
        if (!account) throw new Error('missing table');
        tables.push(new AddressLookupTableAccount({ key: lookup.accountKey, state: AddressLookupTableAccount.deserialize(account.data) }));
      }
      if (tables.length) {
        const keys = tx.message.getAccountKeys({ addressLookupTableAccounts: tables });
        loaded = { writable: keys.accountKeysFromLookups?.writable ?? [], readonly: keys.accountKeysFromLookups?.readonly ?? [] };
      }
    } catch {
      loaded = { writable: [], readonly: [] };
    }
    return { accountKeys: [...tx.message.staticAccountKeys, ...loaded.writable, ...loaded.readonly], loaded, tables };
  }

  private tokenBalances(keys: PublicKey[]): TokenBalance[] {
    const balances: TokenBalance[] = [];
    keys.forEach((key, accountIndex) => {
      const account = this.svm.getAccount(key);
      if (!account || account.lamports === 0) return;
      const token = decodeTokenAccount(account.owner, account.data);
      if (!token) return;
      const mintAccount = this.svm.getAccount(token.mint);
      const mint = mintAccount ? decodeMint(mintAccount.owner, mintAccount.data) : null;
      if (!mint) return;
      balances.push({
        accountIndex,
        mint: token.mint.toBase58(),
        owner: token.owner.toBase58(),
        programId: token.programId.toBase58(),
        uiTokenAmount: uiTokenAmount(token.amount, mint.decimals),
      });
    });
    return balances;
  }

  private recordSlot(slot: number, blockhash: string): void {
    this.slotBlockhash.set(slot, blockhash);
    this.blockhashSlot.set(blockhash, slot);
    this.slotTime.set(slot, Math.floor(Date.now() / 1000));
    // Keep memory flat on a localnet that runs for days: old empty blocks are forgotten
    // (getBlock answers "not available" for them, as a node without long-term storage does).
    const old = slot - RETAINED_EMPTY_SLOTS;
    const oldHash = this.slotBlockhash.get(old);
    if (oldHash === undefined) return;
    this.blockhashSlot.delete(oldHash);
    if (!this.bySlot.has(old)) {
      this.slotBlockhash.delete(old);
      this.slotTime.delete(old);
    }
  }

  private setClock(): void {
    const clock = this.svm.getClock();
    clock.slot = BigInt(this.currentSlot);
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000));
    this.svm.setClock(clock);
  }

  /**
   * litesvm 0.8's Linux JIT corrupts the Node heap after running the Memo v2 and Associated
   * Token Account program binaries (litesvm issues #171 and #352: a later GC aborts with
   * std::bad_alloc). Memo v2 is served by the Memo v1 binary, which behaves the same for
   * memos (UTF-8 check) but does not require passed accounts to sign; the ATA program's
   * instructions are emulated (ata-emulation.ts) and never reach litesvm.
   */
  private replaceCrashingPrograms(): void {
    const memoV1 = this.svm.getAccount(new PublicKey(MEMO_V1));
    if (memoV1) this.svm.addProgramWithLoader(new PublicKey(MEMO_V2), memoV1.data, new PublicKey('BPFLoader1111111111111111111111111111111111'));
  }

  /** Why the localnet will not run this transaction (an ATA use it cannot emulate), or null. */
  refusal(tx: VersionedTransaction): string | null {
    const { accountKeys, tables } = this.resolveKeys(tx);
    let plan = planAtaSteps(tx, accountKeys, (key) => this.getAccount(key));
    if (Array.isArray(plan) && !withoutAtaInstructions(tx, tables, plan)) {
      plan = 'the payer of an Associated Token Account instruction must also sign another instruction or pay the fee';
    }
    if (typeof plan !== 'string') return null;
    return `svc-localnet cannot run this transaction: ${plan} (litesvm 0.8 cannot run the Associated Token Account program binary safely, so the localnet emulates its common instructions)`;
  }

  /**
   * Creates the owner's associated token account for the mint directly in the ledger (no
   * transaction), standing in for the ATA program. Returns its address; existing accounts are kept.
   */
  createAssociatedTokenAccount(owner: PublicKey, mint: PublicKey): PublicKey {
    const mintAccount = this.svm.getAccount(mint);
    if (!mintAccount || !decodeMint(mintAccount.owner, mintAccount.data)) throw new Error(`${mint.toBase58()} is not a token mint`);
    const programId = mintAccount.owner;
    const address = getAssociatedTokenAddressSync(mint, owner, true, programId);
    if (this.getAccount(address)) return address;
    const data = associatedAccountData(mint, owner, programId);
    const before = this.snapshot([address]);
    this.svm.setAccount(address, {
      lamports: Number(this.minimumBalanceForRentExemption(data.length)),
      data,
      owner: programId,
      executable: false,
      rentEpoch: 0,
    });
    this.noteChanges(before);
    this.touched.add(address.toBase58());
    return address;
  }

  /** The faucet behind requestAirdrop and the localnet USDC mint at its fixed address. */
  private seedAccounts(): void {
    this.svm.setAccount(faucetKeypair().publicKey, {
      lamports: Number(FAUCET_LAMPORTS),
      data: new Uint8Array(0),
      owner: new PublicKey('11111111111111111111111111111111'),
      executable: false,
      rentEpoch: 0,
    });
    const data = Buffer.alloc(MINT_SIZE);
    const authority = usdcMintAuthority().publicKey;
    MintLayout.encode(
      {
        mintAuthorityOption: 1,
        mintAuthority: authority,
        supply: 0n,
        decimals: LOCALNET_USDC_DECIMALS,
        isInitialized: true,
        freezeAuthorityOption: 1,
        freezeAuthority: authority,
      },
      data,
    );
    this.touched.add(faucetKeypair().publicKey.toBase58());
    this.touched.add(usdcMintKeypair().publicKey.toBase58());
    this.svm.setAccount(usdcMintKeypair().publicKey, {
      lamports: Number(this.minimumBalanceForRentExemption(MINT_SIZE)),
      data,
      owner: TOKEN_PROGRAM_ID,
      executable: false,
      rentEpoch: 0,
    });
  }
}

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function sameAccount(a: AccountInfo<Uint8Array> | null, b: AccountInfo<Uint8Array> | null): boolean {
  if (!a || !b) return a === b;
  return a.lamports === b.lamports && a.executable === b.executable && a.owner.equals(b.owner) && Buffer.from(a.data).equals(Buffer.from(b.data));
}

/** A listener's failure must never undo or fail the transaction or slot it hears about. */
function notifySafely<T>(listener: (value: T) => void, value: T): void {
  try {
    listener(value);
  } catch {
    // Listeners (websocket notifications) are best effort, as on a real node.
  }
}

export function signatureOf(tx: VersionedTransaction): string {
  return encodeBase58(tx.signatures[0] ?? new Uint8Array(64));
}

function isUnsigned(tx: VersionedTransaction): boolean {
  return tx.signatures.every((s) => s.every((b) => b === 0));
}

function notLanded(error: DescribedError): SendOutcome {
  return { landed: false, error, logs: [], unitsConsumed: 0n };
}

function emptySimulation(): SimulationResult {
  return { error: null, logs: [], unitsConsumed: 0n, returnData: null, innerInstructions: [], postAccounts: new Map() };
}


