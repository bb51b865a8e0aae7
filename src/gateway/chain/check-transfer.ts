import type { TokenBalance } from '@solana/web3.js';
import { TOKEN_PROGRAMS } from './programs.js';
import { viewTransaction, type TransactionAnswer, type TransactionView } from './transaction-view.js';
import type { ExpectedTransfer, TransferCheck, TransferReason } from './types.js';

const utf8 = new TextEncoder();

/**
 * Checks one getTransaction answer against what a payment expects (DESIGN §5). Pure: no RPC, no clock.
 *
 * Order of the checks, first failure wins: the transaction failed → it does not mention the reference →
 * the memo is missing or different → the recipient's balance of the right asset did not rise (another asset
 * did: wrong_mint; nothing did: recipient_not_credited) → it rose by less than the amount (underpaid).
 * Balances, not instructions, decide: the transfer may sit anywhere among compute-budget, account-creation
 * or other instructions, and whatever the wallet did, only what the recipient actually received counts.
 */
export function checkTransfer(tx: TransactionAnswer, expected: ExpectedTransfer): TransferCheck {
  assertExpected(expected);
  const view = viewTransaction(tx);
  const payer = view.accountKeys[0] ?? null;
  const invalid = (reason: TransferReason, amountReceived = 0n): TransferCheck => ({
    verdict: 'invalid',
    reason,
    amountReceived,
    overpaid: false,
    payer,
  });

  if (!view.hasMeta) return invalid('meta_missing');
  // A failed transaction moved nothing but its fee, whatever its instructions say.
  if (view.err !== null) return invalid('transaction_failed');

  const received = expected.mint === null ? lamportRise(view, expected.recipient) : tokenRise(view, expected.recipient, expected.mint);
  const amountReceived = received > 0n ? received : 0n;

  if (!view.accountKeys.includes(expected.reference)) return invalid('reference_missing', amountReceived);
  if (expected.memo !== null && !hasMemo(view, expected.memo)) return invalid('memo_mismatch', amountReceived);
  if (amountReceived === 0n) {
    return invalid(otherAssetRose(view, expected) ? 'wrong_mint' : 'recipient_not_credited');
  }
  if (amountReceived < expected.amount) {
    return { verdict: 'underpaid', reason: 'amount_short', amountReceived, overpaid: false, payer };
  }
  return { verdict: 'paid', reason: null, amountReceived, overpaid: amountReceived > expected.amount, payer };
}

/** Throws on an expectation no payment can have (a programming error, never a verdict). */
export function assertExpected(expected: ExpectedTransfer): void {
  if (typeof expected.amount !== 'bigint' || expected.amount <= 0n) {
    throw new RangeError(`expected amount must be a positive bigint of base units, got ${String(expected.amount)}`);
  }
}

/** Lamports the recipient's own account gained (post - pre at its index); 0n when it is not in the transaction. */
function lamportRise(view: TransactionView, recipient: string): bigint {
  const index = view.accountKeys.indexOf(recipient);
  if (index < 0) return 0n;
  const pre = view.preBalances[index];
  const post = view.postBalances[index];
  if (pre === undefined || post === undefined) return 0n;
  return BigInt(post) - BigInt(pre);
}

/** True for a balance entry of a token account owned by `owner` under the Token or Token-2022 program. */
function ownedTokenAccount(balance: TokenBalance, owner: string): boolean {
  // Older RPC nodes omit programId; the mint already pins the program (a mint's accounts live under its program).
  return balance.owner === owner && (balance.programId === undefined || TOKEN_PROGRAMS.has(balance.programId));
}

function baseUnits(balance: TokenBalance): bigint {
  const amount = balance.uiTokenAmount.amount;
  if (!/^\d+$/.test(amount)) throw new Error(`RPC returned a token amount that is not an integer: ${JSON.stringify(amount)}`);
  return BigInt(amount);
}

/**
 * Net change of everything `owner` holds of `mint` across the token accounts this transaction touched:
 * sum of post balances minus sum of pre balances. A token account created by the transaction has no pre entry
 * (counts as 0); one closed by it has no post entry. Moving tokens between two of the owner's accounts nets 0.
 */
function tokenRise(view: TransactionView, owner: string, mint: string): bigint {
  const sum = (balances: readonly TokenBalance[]) =>
    balances.filter((b) => b.mint === mint && ownedTokenAccount(b, owner)).reduce((total, b) => total + baseUnits(b), 0n);
  return sum(view.postTokenBalances) - sum(view.preTokenBalances);
}

/** Did the recipient receive some other asset (another mint, or SOL instead of a token, or a token instead of SOL)? */
function otherAssetRose(view: TransactionView, expected: ExpectedTransfer): boolean {
  const mints = new Set(
    [...view.preTokenBalances, ...view.postTokenBalances]
      .filter((b) => ownedTokenAccount(b, expected.recipient) && b.mint !== expected.mint)
      .map((b) => b.mint),
  );
  for (const mint of mints) if (tokenRise(view, expected.recipient, mint) > 0n) return true;
  return expected.mint !== null && lamportRise(view, expected.recipient) > 0n;
}

function hasMemo(view: TransactionView, memo: string): boolean {
  const wanted = utf8.encode(memo);
  return view.memos.some((data) => (typeof data === 'string' ? data === memo : bytesEqual(data, wanted)));
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
