/** Shared pieces of the RPC method handlers: the handler type and the `context` of answers. */
import type { PublicKey } from '@solana/web3.js';
import type { Commitment, LocalChain } from './chain.js';
import type { Params } from './params.js';
import { commitmentParam } from './params.js';
import { RPC_CODES, RpcError } from './rpc-error.js';
import { decodeMint } from './token-state.js';
import { API_VERSION } from './version.js';

export type Handler = (chain: LocalChain, params: Params) => unknown;

export function context(chain: LocalChain, commitment: Commitment) {
  return { apiVersion: API_VERSION, slot: chain.slot(commitment) };
}

export function withContext(chain: LocalChain, config: Record<string, unknown>, value: unknown) {
  const commitment = commitmentParam(config);
  checkMinContextSlot(chain, config, commitment);
  return { context: context(chain, commitment), value };
}

export function checkMinContextSlot(chain: LocalChain, config: Record<string, unknown>, commitment: Commitment): void {
  const min = config.minContextSlot;
  if (min === undefined || min === null) return;
  if (typeof min !== 'number' || !Number.isSafeInteger(min) || min < 0) throw RpcError.invalidParams('Invalid params: minContextSlot must be a u64');
  const slot = chain.slot(commitment);
  if (slot < min) throw new RpcError(RPC_CODES.minContextSlotNotReached, 'Minimum context slot has not been reached', { contextSlot: slot });
}

export function mintDecimals(chain: LocalChain): (mint: PublicKey) => number {
  return (mint) => {
    const account = chain.getAccount(mint);
    return (account && decodeMint(account.owner, account.data)?.decimals) ?? 0;
  };
}
