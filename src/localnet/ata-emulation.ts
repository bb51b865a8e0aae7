/**
 * Stands in for the Associated Token Account program, whose binary litesvm 0.8 cannot run
 * safely on Linux (its JIT corrupts the Node heap: litesvm issues #171, #352).
 *
 * A transaction with top-level ATA `Create` / `CreateIdempotent` instructions runs like this:
 * each ATA instruction is checked and applied here, in order, exactly as the program would
 * (derived address, mint under the given token program, existing account, rent from the payer);
 * the remaining instructions run in litesvm as one transaction with the same signatures; if
 * anything fails, every account is put back and only the fee is charged, as the runtime does.
 * The result is reported against the original message: instruction indexes in errors and inner
 * instructions, the ATA program's inner instructions (System createAccount, Token
 * InitializeImmutableOwner and InitializeAccount3) and its log lines. The ATA program's log
 * lines and compute units are synthesized; everything else is what litesvm executed.
 */
import {
  AddressLookupTableAccount,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
  type AccountInfo,
  type TransactionInstruction,
} from '@solana/web3.js';
import {
  ACCOUNT_SIZE,
  AccountLayout,
  AccountState,
  MINT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { decodeMint, decodeTokenAccount } from './token-state.js';

export const ATA_PROGRAM_ID = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const SYSTEM = SystemProgram.programId;
/** Synthesized compute units of the ATA program itself (its CPIs are not executed by litesvm). */
export const ATA_CREATE_UNITS = 20_000n;
export const ATA_EXISTING_UNITS = 4_000n;

export interface AtaStep {
  index: number;
  kind: 'create' | 'createIdempotent';
  payer: PublicKey;
  ata: PublicKey;
  wallet: PublicKey;
  mint: PublicKey;
  tokenProgram: PublicKey;
}

export type AtaOutcome =
  | { step: AtaStep; result: 'created'; rent: bigint }
  | { step: AtaStep; result: 'existing' }
  | { step: AtaStep; result: 'failed'; error: unknown; message: string };

/** Account data of an initialized associated token account (Token-2022 ones carry ImmutableOwner). */
export function associatedAccountData(mint: PublicKey, owner: PublicKey, tokenProgram: PublicKey): Buffer {
  const is2022 = tokenProgram.equals(TOKEN_2022_PROGRAM_ID);
  const data = Buffer.alloc(is2022 ? ACCOUNT_SIZE + 5 : ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount: 0n,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: AccountState.Initialized,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  if (is2022) {
    data[ACCOUNT_SIZE] = 2; // account type: Account
    data.writeUInt16LE(7, ACCOUNT_SIZE + 1); // extension: ImmutableOwner
    data.writeUInt16LE(0, ACCOUNT_SIZE + 3); // its length
  }
  return data;
}

/**
 * The ATA steps of a transaction, null when it has none, or a string saying why the localnet
 * cannot emulate it (RecoverNested, unusual account lists, Token-2022 mints with extensions).
 */
export function planAtaSteps(
  tx: VersionedTransaction,
  keys: PublicKey[],
  getAccount: (key: PublicKey) => AccountInfo<Uint8Array> | null,
): AtaStep[] | string | null {
  const steps: AtaStep[] = [];
  const message = tx.message;
  for (const [index, ix] of message.compiledInstructions.entries()) {
    if (!keys[ix.programIdIndex]?.equals(ATA_PROGRAM_ID)) continue;
    const kind = ix.data.length === 0 || ix.data[0] === 0 ? 'create' : ix.data[0] === 1 && ix.data.length === 1 ? 'createIdempotent' : null;
    if (!kind) return 'only the Create and CreateIdempotent instructions of the Associated Token Account program are supported';
    const accounts = ix.accountKeyIndexes.map((i) => keys[i] as PublicKey);
    const [payer, ata, wallet, mint, system, tokenProgram] = accounts;
    if (!payer || !ata || !wallet || !mint || !system || !tokenProgram) return 'an Associated Token Account instruction needs 6 accounts';
    if (!system.equals(SYSTEM)) return 'the Associated Token Account instruction does not name the System program';
    const payerIndex = ix.accountKeyIndexes[0] as number;
    if (!message.isAccountSigner(payerIndex) || !message.isAccountWritable(payerIndex)) {
      return 'the payer of an Associated Token Account instruction must sign and be writable';
    }
    if (!message.isAccountWritable(ix.accountKeyIndexes[1] as number)) return 'the associated token account must be writable';
    const mintAccount = getAccount(mint);
    if (mintAccount && tokenProgram.equals(TOKEN_2022_PROGRAM_ID) && mintAccount.data.length !== MINT_SIZE) {
      return 'Token-2022 mints with extensions are not supported by the Associated Token Account emulation';
    }
    steps.push({ index, kind, payer, ata, wallet, mint, tokenProgram });
  }
  return steps.length ? steps : null;
}

/** Applies one step to the ledger (through the callbacks) and says what happened. */
export function applyAtaStep(
  step: AtaStep,
  getAccount: (key: PublicKey) => AccountInfo<Uint8Array> | null,
  setAccount: (key: PublicKey, account: AccountInfo<Uint8Array>) => void,
  rentFor: (size: number) => bigint,
): AtaOutcome {
  const fail = (error: unknown, message: string): AtaOutcome => ({ step, result: 'failed', error, message });
  if (!step.tokenProgram.equals(TOKEN_PROGRAM_ID) && !step.tokenProgram.equals(TOKEN_2022_PROGRAM_ID)) {
    return fail('IncorrectProgramId', 'incorrect program id for instruction');
  }
  if (!getAssociatedTokenAddressSync(step.mint, step.wallet, true, step.tokenProgram).equals(step.ata)) {
    return fail('InvalidSeeds', 'Provided seeds do not result in a valid address');
  }
  const mint = getAccount(step.mint);
  if (!mint || !mint.owner.equals(step.tokenProgram)) return fail('IncorrectProgramId', 'incorrect program id for instruction');
  if (!decodeMint(mint.owner, mint.data)) return fail('InvalidAccountData', 'invalid account data for instruction');

  const existing = getAccount(step.ata);
  if (existing) {
    const token = existing.owner.equals(step.tokenProgram) ? decodeTokenAccount(existing.owner, existing.data) : null;
    if (step.kind === 'createIdempotent' && token && token.owner.equals(step.wallet) && token.mint.equals(step.mint)) {
      return { step, result: 'existing' };
    }
    // Create on a used address fails in System createAccount ("already in use"); an idempotent
    // create over a foreign account fails with the ATA program's InvalidOwner. Both are custom error 0.
    return fail({ Custom: 0 }, 'custom program error: 0x0');
  }
  const data = associatedAccountData(step.mint, step.wallet, step.tokenProgram);
  const rent = rentFor(data.length);
  const payer = getAccount(step.payer);
  if (!payer || BigInt(payer.lamports) < rent) return fail({ Custom: 1 }, 'custom program error: 0x1');
  setAccount(step.payer, { ...payer, lamports: Number(BigInt(payer.lamports) - rent) });
  setAccount(step.ata, { lamports: Number(rent), data, owner: step.tokenProgram, executable: false, rentEpoch: 0 });
  return { step, result: 'created', rent };
}

/**
 * The transaction without its ATA instructions (and, when `before` is given, without anything
 * from that index on), with the original signatures. Null if removing them would change the
 * set of signers (the fee would differ) or the message cannot be decompiled.
 */
export function withoutAtaInstructions(
  tx: VersionedTransaction,
  tables: AddressLookupTableAccount[],
  steps: AtaStep[],
  before = Infinity,
): { tx: VersionedTransaction; kept: number[] } | null {
  const ataIndexes = new Set(steps.map((s) => s.index));
  let decompiled: TransactionMessage;
  try {
    decompiled = TransactionMessage.decompile(tx.message, { addressLookupTableAccounts: tables });
  } catch {
    return null; // e.g. a lookup table that does not exist: the transaction cannot load anyway
  }
  const kept: number[] = [];
  const instructions: TransactionInstruction[] = [];
  decompiled.instructions.forEach((ix, i) => {
    if (ataIndexes.has(i) || i >= before) return;
    kept.push(i);
    instructions.push(ix);
  });
  const rebuilt = new TransactionMessage({ payerKey: decompiled.payerKey, recentBlockhash: decompiled.recentBlockhash, instructions });
  const message = tx.version === 'legacy' ? rebuilt.compileToLegacyMessage() : rebuilt.compileToV0Message(tables);
  const originalSigners = tx.message.staticAccountKeys.slice(0, tx.message.header.numRequiredSignatures).map((k) => k.toBase58());
  const signers = message.staticAccountKeys.slice(0, message.header.numRequiredSignatures).map((k) => k.toBase58());
  if (signers.length !== originalSigners.length) return null;
  const signatures = signers.map((signer) => tx.signatures[originalSigners.indexOf(signer)] as Uint8Array);
  if (signatures.some((s) => s === undefined)) return null;
  return { tx: new VersionedTransaction(message, signatures), kept };
}

/** The ATA program's log lines for one step, as a real node prints them (minus the CPI details). */
export function ataLogs(outcome: AtaOutcome): string[] {
  const id = ATA_PROGRAM_ID.toBase58();
  const token = outcome.step.tokenProgram.toBase58();
  const lines = [`Program ${id} invoke [1]`, `Program log: ${outcome.step.kind === 'create' ? 'Create' : 'CreateIdempotent'}`];
  if (outcome.result === 'created') {
    lines.push(
      `Program ${SYSTEM.toBase58()} invoke [2]`,
      `Program ${SYSTEM.toBase58()} success`,
      'Program log: Initialize the associated token account',
      `Program ${token} invoke [2]`,
      `Program ${token} success`,
      `Program ${token} invoke [2]`,
      `Program ${token} success`,
    );
  }
  const units = outcome.result === 'created' ? ATA_CREATE_UNITS : ATA_EXISTING_UNITS;
  lines.push(`Program ${id} consumed ${units} of 200000 compute units`);
  lines.push(outcome.result === 'failed' ? `Program ${id} failed: ${outcome.message}` : `Program ${id} success`);
  return lines;
}

/** Compiled inner instructions (indexes into the original account keys) of a created account. */
export function ataInnerInstructions(
  outcome: AtaOutcome,
  keyIndex: (key: PublicKey) => number,
): Array<{ programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }> {
  if (outcome.result !== 'created') return [];
  const { step, rent } = outcome;
  const size = associatedAccountData(step.mint, step.wallet, step.tokenProgram).length;
  const create = SystemProgram.createAccount({ fromPubkey: step.payer, newAccountPubkey: step.ata, lamports: Number(rent), space: size, programId: step.tokenProgram });
  const token = keyIndex(step.tokenProgram);
  return [
    { programIdIndex: keyIndex(SYSTEM), accounts: [keyIndex(step.payer), keyIndex(step.ata)], data: create.data, stackHeight: 2 },
    { programIdIndex: token, accounts: [keyIndex(step.ata)], data: Uint8Array.from([22]), stackHeight: 2 },
    { programIdIndex: token, accounts: [keyIndex(step.ata), keyIndex(step.mint)], data: Uint8Array.from([18, ...step.wallet.toBytes()]), stackHeight: 2 },
  ];
}

/** Splits program logs into the blocks of each top-level instruction. */
export function topLevelBlocks(logs: string[]): string[][] {
  const blocks: string[][] = [];
  for (const line of logs) {
    if (/^Program \S+ invoke \[1\]$/.test(line) || blocks.length === 0) blocks.push([line]);
    else (blocks[blocks.length - 1] as string[]).push(line);
  }
  return blocks;
}
