/**
 * Runs a transaction whose top-level instructions include Associated Token Account ones
 * (see ata-emulation.ts for why and what is emulated) against the chain's litesvm.
 */
import { PublicKey, type AccountInfo, type AddressLookupTableAccount, type VersionedTransaction } from '@solana/web3.js';
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from 'litesvm';
import {
  ATA_CREATE_UNITS,
  ATA_EXISTING_UNITS,
  applyAtaStep,
  ataInnerInstructions,
  ataLogs,
  topLevelBlocks,
  withoutAtaInstructions,
  type AtaOutcome,
  type AtaStep,
} from './ata-emulation.js';
import {
  EMPTY_ACCOUNT,
  feeOf,
  innerOf,
  instructionIndexOf,
  remapError,
  returnDataOf,
  toAccountInfo,
  type Execution,
} from './execution.js';
import { feeForMessage } from './fees.js';
import { describeTransactionError, type DescribedError } from './tx-error.js';

/** What the runner needs from the chain. */
export interface Ledger {
  svm: LiteSVM;
  getAccount(key: PublicKey): AccountInfo<Uint8Array> | null;
  minimumBalanceForRentExemption(dataLength: number): bigint;
  resolveKeys(tx: VersionedTransaction): { accountKeys: PublicKey[] };
}

/**
 * Runs a transaction with top-level Associated Token Account instructions (see
 * ata-emulation.ts): ATA steps applied here, the rest in litesvm, all undone but the fee on
 * failure (and everything undone when `commit` is false), results mapped to the original message.
 */
export function runWithAtaEmulation(
  ledger: Ledger,
  tx: VersionedTransaction,
  steps: AtaStep[],
  tables: AddressLookupTableAccount[],
  accountKeys: PublicKey[],
  commit: boolean,
): Execution {
  const snapshot = new Map(accountKeys.map((key) => [key.toBase58(), ledger.svm.getAccount(key)]));
  const restore = (): void => {
    for (const [key, account] of snapshot) ledger.svm.setAccount(new PublicKey(key), account ?? EMPTY_ACCOUNT);
  };
  const outcomes: AtaOutcome[] = [];
  for (const step of steps) {
    const outcome = applyAtaStep(
      step,
      (key) => ledger.getAccount(key),
      (key, account) => ledger.svm.setAccount(key, account),
      (size) => ledger.minimumBalanceForRentExemption(size),
    );
    outcomes.push(outcome);
    if (outcome.result === 'failed') break;
  }
  const failure = outcomes.find((o) => o.result === 'failed');
  const rest = withoutAtaInstructions(tx, tables, steps, failure ? failure.step.index : Infinity);
  if (!rest) {
    restore();
    throw new Error('svc-localnet cannot emulate this Associated Token Account instruction: its payer signs nothing else in the transaction');
  }
  const feePayer = accountKeys[0] as PublicKey;
  const innerKeys = ledger.resolveKeys(rest.tx).accountKeys;
  const toOriginal = (i: number): number => accountKeys.findIndex((k) => k.equals(innerKeys[i] as PublicKey));
  const keyIndex = (key: PublicKey): number => accountKeys.findIndex((k) => k.equals(key));

  let error: DescribedError | null = null;
  let meta: TransactionMetadata | null = null;
  let postAccounts = new Map<string, AccountInfo<Uint8Array>>();
  let landed = true;
  const fee = feeForMessage(tx.message);
  const hasInstructions = rest.kept.length > 0;

  if (failure && failure.result === 'failed') {
    error = {
      json: { InstructionError: [failure.step.index, failure.error] },
      message: `Error processing Instruction ${failure.step.index}: ${failure.message}`,
    };
    // Instructions before the failing ATA instruction run first and may fail first.
    if (hasInstructions) {
      const sim = ledger.svm.simulateTransaction(rest.tx);
      meta = sim.meta();
      if (sim instanceof FailedTransactionMetadata) error = remapError(describeTransactionError(sim.err()), rest.kept);
    }
    restore();
    const balance = ledger.svm.getBalance(feePayer) ?? 0n;
    landed = balance >= fee;
    if (commit && landed) debit(ledger.svm, feePayer, fee);
  } else if (commit) {
    const before = ledger.svm.getBalance(feePayer) ?? 0n;
    const result = hasInstructions ? ledger.svm.sendTransaction(rest.tx) : null;
    meta = result instanceof FailedTransactionMetadata ? result.meta() : result;
    // litesvm charged the fee of the shorter transaction; the original's (its ATA instructions
    // count towards the default compute limit, hence the priority fee) is `fee`.
    if (result instanceof FailedTransactionMetadata) {
      error = remapError(describeTransactionError(result.err()), rest.kept);
      const charged = before - (ledger.svm.getBalance(feePayer) ?? 0n);
      restore();
      landed = charged > 0n;
      if (landed) debit(ledger.svm, feePayer, fee);
    } else if (result) {
      debit(ledger.svm, feePayer, fee - feeOf(result, rest.tx));
    } else {
      // Only ATA instructions: the runtime still charges the fee.
      landed = before >= fee;
      if (landed) debit(ledger.svm, feePayer, fee);
      else restore();
    }
  } else {
    const sim = hasInstructions ? ledger.svm.simulateTransaction(rest.tx) : null;
    meta = sim ? sim.meta() : null;
    if (sim instanceof FailedTransactionMetadata) error = remapError(describeTransactionError(sim.err()), rest.kept);
    else if (sim) postAccounts = new Map(sim.postAccounts().map(([key, account]) => [key.toBase58(), toAccountInfo(account)]));
    for (const o of outcomes) {
      const created = o.result === 'created' ? ledger.svm.getAccount(o.step.ata) : null;
      if (created) postAccounts.set(o.step.ata.toBase58(), created);
    }
    restore();
  }

  // Report against the original message: instructions past the failing one never ran.
  const errorIndex = instructionIndexOf(error?.json ?? null);
  const shown = outcomes.filter((o) => errorIndex === null || o.step.index <= errorIndex);
  const blocks = topLevelBlocks(meta ? meta.logs() : []);
  const logs: string[] = [];
  const total = tx.message.compiledInstructions.length;
  for (let i = 0; i < total; i++) {
    const outcome = shown.find((o) => o.step.index === i);
    if (outcome) logs.push(...ataLogs(outcome));
    else {
      const k = rest.kept.indexOf(i);
      if (k >= 0 && blocks[k]) logs.push(...(blocks[k] as string[]));
    }
  }
  const inner = (meta ? innerOf(meta) : []).map(({ index, instructions }) => ({
    index: rest.kept[index] as number,
    instructions: instructions.map((ix) => ({ ...ix, programIdIndex: toOriginal(ix.programIdIndex), accounts: ix.accounts.map(toOriginal) })),
  }));
  for (const o of shown) {
    const instructions = ataInnerInstructions(o, keyIndex);
    if (instructions.length) inner.push({ index: o.step.index, instructions });
  }
  inner.sort((a, b) => a.index - b.index);
  const ataUnits = shown.reduce((sum, o) => sum + (o.result === 'created' ? ATA_CREATE_UNITS : ATA_EXISTING_UNITS), 0n);
  return {
    landed,
    error,
    fee,
    logs,
    unitsConsumed: (meta ? meta.computeUnitsConsumed() : 0n) + ataUnits,
    innerInstructions: inner,
    returnData: meta ? returnDataOf(meta) : null,
    postAccounts,
  };
}

function debit(svm: LiteSVM, key: PublicKey, lamports: bigint): void {
  const account = svm.getAccount(key);
  if (account) svm.setAccount(key, { ...account, lamports: Number(BigInt(account.lamports) - lamports) });
}
