/**
 * Reading SPL Token / Token-2022 accounts and mints out of raw account data, and the
 * `uiTokenAmount` object real nodes put in token balances and getTokenAccountBalance.
 */
import { PublicKey } from '@solana/web3.js';
import { formatAmount } from '../core/amount.js';
import {
  ACCOUNT_SIZE,
  AccountLayout,
  AccountState,
  MINT_SIZE,
  MintLayout,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  /** Deprecated float; null for a zero balance, as real nodes return it. */
  uiAmount: number | null;
  uiAmountString: string;
}

export interface TokenAccountState {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
  state: 'uninitialized' | 'initialized' | 'frozen';
  isNative: boolean;
  delegate: PublicKey | null;
  delegatedAmount: bigint;
  closeAuthority: PublicKey | null;
  programId: PublicKey;
}

export interface MintState {
  decimals: number;
  supply: bigint;
  isInitialized: boolean;
  mintAuthority: PublicKey | null;
  freezeAuthority: PublicKey | null;
  programId: PublicKey;
}

export function isTokenProgram(owner: PublicKey): boolean {
  return owner.equals(TOKEN_PROGRAM_ID) || owner.equals(TOKEN_2022_PROGRAM_ID);
}

/** Token-2022 puts an account-type byte after the base layout; 2 means Account, 1 Mint. */
function hasAccountType(data: Uint8Array, kind: 1 | 2): boolean {
  return data.length === ACCOUNT_SIZE || (data.length > ACCOUNT_SIZE && data[ACCOUNT_SIZE] === kind);
}

/** The token account, or null when the data is not an initialized token account. */
export function decodeTokenAccount(owner: PublicKey, data: Uint8Array): TokenAccountState | null {
  if (!isTokenProgram(owner) || data.length < ACCOUNT_SIZE) return null;
  if (owner.equals(TOKEN_2022_PROGRAM_ID) ? !hasAccountType(data, 2) : data.length !== ACCOUNT_SIZE) return null;
  const raw = AccountLayout.decode(data.subarray(0, ACCOUNT_SIZE));
  if (raw.state === AccountState.Uninitialized) return null;
  return {
    mint: raw.mint,
    owner: raw.owner,
    amount: raw.amount,
    state: raw.state === AccountState.Frozen ? 'frozen' : 'initialized',
    isNative: raw.isNativeOption === 1,
    delegate: raw.delegateOption ? raw.delegate : null,
    delegatedAmount: raw.delegatedAmount,
    closeAuthority: raw.closeAuthorityOption ? raw.closeAuthority : null,
    programId: owner,
  };
}

/** The mint, or null when the data is not a mint. */
export function decodeMint(owner: PublicKey, data: Uint8Array): MintState | null {
  if (!isTokenProgram(owner) || data.length < MINT_SIZE) return null;
  if (data.length !== MINT_SIZE) {
    // Only Token-2022 mints carry extensions: padded to the account size, then type byte 1.
    if (!owner.equals(TOKEN_2022_PROGRAM_ID) || data.length <= ACCOUNT_SIZE || data[ACCOUNT_SIZE] !== 1) return null;
  }
  const raw = MintLayout.decode(data.subarray(0, MINT_SIZE));
  return {
    decimals: raw.decimals,
    supply: raw.supply,
    isInitialized: raw.isInitialized,
    mintAuthority: raw.mintAuthorityOption ? raw.mintAuthority : null,
    freezeAuthority: raw.freezeAuthorityOption ? raw.freezeAuthority : null,
    programId: owner,
  };
}

/** "1.5" for 1500000 with 6 decimals: no trailing zeros, no exponent. */
export function uiAmountString(amount: bigint, decimals: number): string {
  return formatAmount(amount, decimals);
}

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const text = uiAmountString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: amount === 0n ? null : Number(text), uiAmountString: text };
}
