/**
 * What litesvm reports about an executed transaction, turned into the pieces a real node's
 * transaction status holds (inner instructions, return data, fee, memo), plus the Execution
 * record the chain builds before storing a transaction.
 */
import { PublicKey, type AccountInfo, type VersionedTransaction } from '@solana/web3.js';
import type { TransactionMetadata } from 'litesvm';
import type { DescribedError, TransactionErrorJson } from './tx-error.js';

const MEMO_PROGRAMS = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']);
const LAMPORTS_PER_SIGNATURE = 5000n;

export interface CompiledInner {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number;
}

/** What running a transaction did, before it is recorded. */
export interface Execution {
  landed: boolean;
  error: DescribedError | null;
  fee: bigint;
  logs: string[];
  unitsConsumed: bigint;
  innerInstructions: Array<{ index: number; instructions: CompiledInner[] }>;
  returnData: { programId: string; data: Uint8Array } | null;
  postAccounts: Map<string, AccountInfo<Uint8Array>>;
}

export const EMPTY_ACCOUNT: AccountInfo<Uint8Array> = {
  lamports: 0,
  data: new Uint8Array(0),
  owner: new PublicKey('11111111111111111111111111111111'),
  executable: false,
  rentEpoch: 0,
};

/** Maps an error of the transaction without its ATA instructions back to the original indexes. */
export function remapError(error: DescribedError, kept: number[]): DescribedError {
  const index = instructionIndexOf(error.json);
  if (index === null) return error;
  const original = kept[index] ?? index;
  const [, inner] = (error.json as { InstructionError: [number, unknown] }).InstructionError;
  return {
    json: { InstructionError: [original, inner] },
    message: error.message.replace(/^Error processing Instruction \d+:/, `Error processing Instruction ${original}:`),
  };
}

export function instructionIndexOf(json: TransactionErrorJson | null): number | null {
  if (json && typeof json === 'object' && Array.isArray((json as { InstructionError?: unknown }).InstructionError)) {
    return (json as { InstructionError: [number, unknown] }).InstructionError[0];
  }
  return null;
}

export interface LiteAccount {
  lamports(): bigint;
  data(): Uint8Array;
  owner(): Uint8Array;
  executable(): boolean;
  rentEpoch(): bigint;
}

export function toAccountInfo(a: LiteAccount): AccountInfo<Uint8Array> {
  return { lamports: Number(a.lamports()), data: a.data(), owner: new PublicKey(a.owner()), executable: a.executable(), rentEpoch: Number(a.rentEpoch()) };
}

/** litesvm charges the fee but does not expose it; it prints it as the last field of the metadata. */
export function feeOf(meta: TransactionMetadata, tx: VersionedTransaction): bigint {
  const printed = /fee: (\d+) \}\)?\s*$/.exec(meta.toString());
  if (printed) return BigInt(printed[1] as string);
  return LAMPORTS_PER_SIGNATURE * BigInt(tx.message.header.numRequiredSignatures);
}

export function innerOf(meta: TransactionMetadata): Array<{ index: number; instructions: CompiledInner[] }> {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return { programIdIndex: ix.programIdIndex(), accounts: [...ix.accounts()], data: ix.data(), stackHeight: inner.stackHeight() };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

export function returnDataOf(meta: TransactionMetadata): { programId: string; data: Uint8Array } | null {
  const rd = meta.returnData();
  const data = rd.data();
  if (data.length === 0) return null;
  return { programId: new PublicKey(rd.programId()).toBase58(), data };
}
export function memoOf(tx: VersionedTransaction): string | null {
  const keys = tx.message.staticAccountKeys;
  const memos = tx.message.compiledInstructions
    .filter((ix) => MEMO_PROGRAMS.has(keys[ix.programIdIndex]?.toBase58() ?? ''))
    .map((ix) => {
      const text = Buffer.from(ix.data).toString('utf8');
      return `[${Buffer.byteLength(text, 'utf8')}] ${text}`;
    });
  return memos.length ? memos.join('; ') : null;
}
