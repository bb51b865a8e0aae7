/**
 * The Solana JSON-RPC methods the localnet answers, with real nodes' parameters, result
 * shapes, defaults (commitment `finalized`, encodings) and error codes. Cluster methods are
 * here; accounts, transactions and blocks have their own files.
 */
import { VersionedMessage } from '@solana/web3.js';
import type { LocalChain } from './chain.js';
import { feeForMessage } from './fees.js';
import { ACCOUNT_METHODS, LOCALNET_METHODS } from './methods-accounts.js';
import { BLOCK_METHODS } from './methods-blocks.js';
import { TRANSACTION_METHODS } from './methods-transactions.js';
import { asParams, commitmentParam, configParam } from './params.js';
import { checkMinContextSlot, context, withContext, type Handler } from './rpc-context.js';
import { RPC_CODES, RpcError } from './rpc-error.js';
import { API_VERSION_INFO } from './version.js';

const CLUSTER_METHODS: Record<string, Handler> = {
  getHealth: () => 'ok',
  getVersion: () => ({ ...API_VERSION_INFO }),
  getGenesisHash: (chain) => chain.genesisHash,
  getFirstAvailableBlock: () => 0,
  getSlot: (chain, params) => {
    const config = configParam(params[0]);
    const commitment = commitmentParam(config);
    checkMinContextSlot(chain, config, commitment);
    return chain.slot(commitment);
  },
  getBlockHeight: (chain, params) => CLUSTER_METHODS.getSlot?.(chain, params),
  getTransactionCount: (chain) => chain.totalTransactions,
  getEpochInfo: (chain, params) => {
    const commitment = commitmentParam(configParam(params[0]));
    const slot = chain.slot(commitment);
    const { epoch, slotIndex, slotsInEpoch } = chain.epoch();
    return { absoluteSlot: slot, blockHeight: slot, epoch, slotIndex, slotsInEpoch, transactionCount: chain.totalTransactions };
  },
  getBlockTime: (chain, params) => {
    const slot = params[0];
    const time = typeof slot === 'number' ? chain.blockTime(slot) : null;
    if (time === null) throw new RpcError(-32004, `Block not available for slot ${String(slot)}`);
    return time;
  },
  getRecentPrioritizationFees: (chain) => [{ prioritizationFee: 0, slot: chain.slot('confirmed') }],
  getLatestBlockhash: (chain, params) => {
    const config = configParam(params[0]);
    const commitment = commitmentParam(config);
    checkMinContextSlot(chain, config, commitment);
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash(commitment);
    return { context: context(chain, commitment), value: { blockhash, lastValidBlockHeight } };
  },
  isBlockhashValid: (chain, params) => {
    if (typeof params[0] !== 'string') throw RpcError.invalidParams('Invalid params: expected a blockhash string');
    return withContext(chain, configParam(params[1]), chain.isBlockhashValid(params[0]));
  },
  getFeeForMessage: (chain, params) => {
    if (typeof params[0] !== 'string') throw RpcError.invalidParams('Invalid params: expected a base64 message');
    let message: VersionedMessage;
    try {
      message = VersionedMessage.deserialize(Buffer.from(params[0], 'base64'));
    } catch (error) {
      throw RpcError.invalidParams(`invalid message: ${(error as Error).message}`);
    }
    const fee = chain.isBlockhashValid(message.recentBlockhash) ? feeForMessage(message) : null;
    return withContext(chain, configParam(params[1]), fee);
  },
  getMinimumBalanceForRentExemption: (chain, params) => {
    const size = params[0];
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw RpcError.invalidParams('Invalid params: expected a data length (usize)');
    return chain.minimumBalanceForRentExemption(size);
  },
};

export const METHODS: Record<string, Handler> = { ...CLUSTER_METHODS, ...ACCOUNT_METHODS, ...TRANSACTION_METHODS, ...BLOCK_METHODS, ...LOCALNET_METHODS };

export function dispatch(chain: LocalChain, method: string, rawParams: unknown): unknown {
  const handler = Object.prototype.hasOwnProperty.call(METHODS, method) ? METHODS[method] : undefined;
  if (!handler) throw new RpcError(RPC_CODES.methodNotFound, 'Method not found');
  return handler(chain, asParams(rawParams));
}
