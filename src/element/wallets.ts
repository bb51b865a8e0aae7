/**
 * Wallet Standard detection without a wallet library: the two window events of the standard.
 *  - the app dispatches `wallet-standard:app-ready` with `{ register }`, for wallets that loaded first;
 *  - a wallet that loads later dispatches `wallet-standard:register-wallet` with a callback, which we call
 *    with the same `{ register }`.
 * One registry per page, shared by every <svc-checkout> on it.
 */
import { requestTransaction } from './api.js';

export interface WalletAccount {
  readonly address: string;
  readonly publicKey: Uint8Array;
  readonly chains: readonly string[];
  readonly features: readonly string[];
}

export interface StandardWallet {
  readonly name: string;
  readonly icon?: string;
  readonly chains: readonly string[];
  readonly accounts: readonly WalletAccount[];
  readonly features: Readonly<Record<string, unknown>>;
}

type Listener = () => void;
interface RegisterApi {
  register(...wallets: StandardWallet[]): () => void;
}

const SIGN_AND_SEND = 'solana:signAndSendTransaction';
const registered = new Set<StandardWallet>();
const listeners = new Set<Listener>();
let started = false;

function register(...wallets: StandardWallet[]): () => void {
  const fresh = wallets.filter((w) => w && !registered.has(w));
  fresh.forEach((w) => registered.add(w));
  if (fresh.length) listeners.forEach((l) => l());
  return () => {
    fresh.forEach((w) => registered.delete(w));
    listeners.forEach((l) => l());
  };
}

function startRegistry(): void {
  if (started) return;
  started = true;
  const api: RegisterApi = Object.freeze({ register });
  window.addEventListener('wallet-standard:register-wallet', (event) => {
    const callback = (event as CustomEvent<(api: RegisterApi) => void>).detail;
    try {
      if (typeof callback === 'function') callback(api);
    } catch (err) {
      console.error('svc-checkout: a wallet failed to register', err);
    }
  });
  // Not a CustomEvent in the reference code either: the standard only reads `detail`.
  const ready = new Event('wallet-standard:app-ready');
  Object.defineProperty(ready, 'detail', { value: api });
  window.dispatchEvent(ready);
}

/** Wallets that can pay: they sign and send Solana transactions. */
export function payableWallets(): StandardWallet[] {
  return [...registered].filter((w) => typeof (w.features[SIGN_AND_SEND] as { signAndSendTransaction?: unknown })?.signAndSendTransaction === 'function');
}

/** Calls `listener` whenever wallets register or leave; returns the unsubscribe function. */
export function watchWallets(listener: Listener): () => void {
  startRegistry();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Wallets reject in their own words; these are the common ones (EIP-1193 style 4001, "User rejected"). */
export function isUserRejection(err: unknown): boolean {
  const e = err as { code?: unknown; name?: string; message?: string } | null;
  return e?.code === 4001 || /reject|denied|declin|cancel/i.test(`${e?.name ?? ''} ${e?.message ?? ''}`);
}

export interface PayTarget {
  baseUrl: string;
  paymentId: string;
  paymentToken: string;
  livemode: boolean;
}

/**
 * Pays through a wallet: connect if needed, ask the gateway for the transaction (Solana Pay transaction
 * request), then let the wallet sign and send it. Resolves once the wallet says it was sent.
 */
export async function payWithWallet(wallet: StandardWallet, target: PayTarget): Promise<void> {
  const chain = target.livemode ? 'solana:mainnet' : 'solana:devnet';
  let account = wallet.accounts.find((a) => a.chains.some((c) => c.startsWith('solana:'))) ?? wallet.accounts[0];
  if (!account) {
    const connect = wallet.features['standard:connect'] as { connect(): Promise<{ accounts: readonly WalletAccount[] }> } | undefined;
    if (!connect) throw new Error(`${wallet.name} cannot connect.`);
    ({
      accounts: [account],
    } = await connect.connect());
    if (!account) throw new Error(`${wallet.name} shared no account.`);
  }
  const { transaction } = await requestTransaction(target.baseUrl, target.paymentId, target.paymentToken, account.address);
  const feature = wallet.features[SIGN_AND_SEND] as {
    signAndSendTransaction(input: { account: WalletAccount; transaction: Uint8Array; chain: string }): Promise<unknown>;
  };
  await feature.signAndSendTransaction({ account, transaction: base64ToBytes(transaction), chain });
}
