import type {
  ParsedTransactionWithMeta,
  TokenBalance,
  TransactionError,
  VersionedMessage,
  VersionedTransactionResponse,
} from '@solana/web3.js';
import { MEMO_PROGRAMS } from './programs.js';

/** Either answer of getTransaction: encoding 'json' (the default) or 'jsonParsed' (getParsedTransaction). */
export type TransactionAnswer = VersionedTransactionResponse | ParsedTransactionWithMeta;

/**
 * The few facts the checks need, the same whatever the encoding or message version.
 * `accountKeys` is the full key list the balance arrays index into: for version 0, the static keys, then the
 * keys loaded from lookup tables (writable, then read-only), as the runtime orders them.
 */
export interface TransactionView {
  hasMeta: boolean;
  err: TransactionError | null;
  accountKeys: string[];
  preBalances: readonly number[];
  postBalances: readonly number[];
  preTokenBalances: readonly TokenBalance[];
  postTokenBalances: readonly TokenBalance[];
  /** Data of every top-level Memo (v1 or v2) instruction: raw bytes ('json') or the RPC's parsed text ('jsonParsed'). */
  memos: Array<Uint8Array | string>;
}

function isVersionedMessage(message: unknown): message is VersionedMessage {
  // Both Message and MessageV0 expose these getters; the parsed message is a plain object without them.
  return typeof message === 'object' && message !== null && 'staticAccountKeys' in message && 'compiledInstructions' in message;
}

export function viewTransaction(tx: TransactionAnswer): TransactionView {
  const meta = tx.meta;
  const base = {
    hasMeta: meta !== null,
    err: meta?.err ?? null,
    preBalances: meta?.preBalances ?? [],
    postBalances: meta?.postBalances ?? [],
    preTokenBalances: meta?.preTokenBalances ?? [],
    postTokenBalances: meta?.postTokenBalances ?? [],
  };
  const message: unknown = tx.transaction.message;

  if (isVersionedMessage(message)) {
    const loaded = meta?.loadedAddresses;
    const accountKeys = [
      ...message.staticAccountKeys,
      ...(loaded?.writable ?? []),
      ...(loaded?.readonly ?? []),
    ].map((key) => key.toBase58());
    const memos = message.compiledInstructions
      .filter((ix) => MEMO_PROGRAMS.has(accountKeys[ix.programIdIndex] ?? ''))
      .map((ix) => ix.data);
    return { ...base, accountKeys, memos };
  }

  // jsonParsed: accountKeys already lists every key, lookup-table ones included (source: 'lookupTable').
  const parsed = (tx as ParsedTransactionWithMeta).transaction.message;
  const accountKeys = parsed.accountKeys.map((account) => account.pubkey.toBase58());
  const memos: string[] = [];
  for (const ix of parsed.instructions) {
    if (!MEMO_PROGRAMS.has(ix.programId.toBase58())) continue;
    // The RPC parses every Memo instruction into its text; an unparsed one cannot be compared, so it never matches.
    if ('parsed' in ix && typeof ix.parsed === 'string') memos.push(ix.parsed);
  }
  return { ...base, accountKeys, memos };
}
