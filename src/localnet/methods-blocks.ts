/**
 * Block and cluster methods, enough for block explorers (the Solana Explorer pointed at a
 * custom RPC URL) and the Solana CLI: getBlock, getBlocks, getBlocksWithLimit,
 * getEpochSchedule, getIdentity, getClusterNodes, getVoteAccounts, getRecentPerformanceSamples,
 * minimumLedgerSlot, getMaxRetransmitSlot, getMaxShredInsertSlot.
 */
import { API_VERSION_INFO } from './version.js';
import { identityKeypair } from './dev-keys.js';
import { encodeTransactionResult, type TransactionEncoding } from './encode-transaction.js';
import { configParam, confirmedOrFinalized } from './params.js';
import type { Handler } from './rpc-context.js';
import { RPC_CODES, RpcError } from './rpc-error.js';

const MAX_BLOCK_RANGE = 500_000;

function slotParam(value: unknown, name = 'slot'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw RpcError.invalidParams(`Invalid params: ${name} must be a u64`);
  }
  return value;
}

function blockNotAvailable(slot: number): RpcError {
  return new RpcError(-32004, `Block not available for slot ${slot}`);
}

export const BLOCK_METHODS: Record<string, Handler> = {
  getBlock: (chain, params) => {
    const slot = slotParam(params[0]);
    const config = typeof params[1] === 'string' ? { encoding: params[1] } : configParam(params[1]);
    const commitment = confirmedOrFinalized(config);
    const newest = chain.slot(commitment);
    const blockhash = chain.blockhashAt(slot);
    if (slot > newest || (commitment === 'finalized' && !chain.isFinalized(slot)) || !blockhash) throw blockNotAvailable(slot);
    const encoding = (config.encoding ?? 'json') as TransactionEncoding | 'binary';
    if (!['json', 'jsonParsed', 'base64', 'base58', 'binary'].includes(encoding)) {
      throw RpcError.invalidParams(`Invalid params: unknown variant \`${String(encoding)}\``);
    }
    const details = config.transactionDetails ?? 'full';
    if (!['full', 'signatures', 'none', 'accounts'].includes(details as string)) {
      throw RpcError.invalidParams(`Invalid params: unknown variant \`${String(details)}\`, expected one of \`full\`, \`signatures\`, \`none\`, \`accounts\``);
    }
    const maxVersion = config.maxSupportedTransactionVersion;
    const records = chain.recordsInSlot(slot);
    if ((maxVersion === undefined || maxVersion === null) && records.some((r) => r.transaction.version === 0)) {
      throw new RpcError(
        RPC_CODES.unsupportedTransactionVersion,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    const block: Record<string, unknown> = {
      blockHeight: slot,
      blockTime: chain.blockTime(slot),
      blockhash,
      parentSlot: Math.max(0, slot - 1),
      previousBlockhash: chain.blockhashAt(Math.max(0, slot - 1)) ?? blockhash,
    };
    const includeVersion = maxVersion === 0;
    if (details === 'full' || details === 'accounts') {
      block.transactions = records.map((record) => {
        const full = encodeTransactionResult(record, encoding === 'binary' ? 'base58' : details === 'accounts' ? 'jsonParsed' : encoding, { includeVersion });
        const { meta, transaction, version } = full as { meta: Record<string, unknown>; transaction: { message: { accountKeys: unknown } }; version?: unknown };
        if (details === 'full') return includeVersion ? { meta, transaction, version } : { meta, transaction };
        const accounts = {
          meta: {
            err: meta.err,
            fee: meta.fee,
            postBalances: meta.postBalances,
            postTokenBalances: meta.postTokenBalances,
            preBalances: meta.preBalances,
            preTokenBalances: meta.preTokenBalances,
            status: meta.status,
          },
          transaction: { accountKeys: transaction.message.accountKeys, signatures: [record.signature] },
        };
        return includeVersion ? { ...accounts, version } : accounts;
      });
    } else if (details === 'signatures') {
      block.signatures = records.map((r) => r.signature);
    }
    if (config.rewards !== false) block.rewards = [];
    return block;
  },
  getBlocks: (chain, params) => {
    const start = slotParam(params[0], 'start_slot');
    const config = typeof params[1] === 'object' && params[1] !== null ? configParam(params[1]) : configParam(params[2]);
    const newest = chain.slot(confirmedOrFinalized(config));
    const end = typeof params[1] === 'number' ? Math.min(slotParam(params[1], 'end_slot'), newest) : newest;
    if (end - start > MAX_BLOCK_RANGE) throw RpcError.invalidParams(`Slot range too large; max ${MAX_BLOCK_RANGE}`);
    const slots: number[] = [];
    for (let slot = start; slot <= end; slot++) if (chain.blockhashAt(slot)) slots.push(slot);
    return slots;
  },
  getBlocksWithLimit: (chain, params) => {
    const start = slotParam(params[0], 'start_slot');
    const limit = slotParam(params[1], 'limit');
    if (limit > MAX_BLOCK_RANGE) throw RpcError.invalidParams(`Limit too large; max ${MAX_BLOCK_RANGE}`);
    const newest = chain.slot(confirmedOrFinalized(configParam(params[2])));
    const slots: number[] = [];
    for (let slot = start; slot <= newest && slots.length < limit; slot++) if (chain.blockhashAt(slot)) slots.push(slot);
    return slots;
  },
  getEpochSchedule: (chain) => chain.epochSchedule(),
  getIdentity: () => ({ identity: identityKeypair().publicKey.toBase58() }),
  getClusterNodes: () => [
    {
      featureSet: API_VERSION_INFO['feature-set'],
      gossip: null,
      pubkey: identityKeypair().publicKey.toBase58(),
      pubsub: null,
      rpc: null,
      serveRepair: null,
      shredVersion: 0,
      tpu: null,
      tpuForwards: null,
      tpuForwardsQuic: null,
      tpuQuic: null,
      tpuVote: null,
      tvu: null,
      version: API_VERSION_INFO['solana-core'],
    },
  ],
  getVoteAccounts: () => ({ current: [], delinquent: [] }),
  getRecentPerformanceSamples: () => [],
  minimumLedgerSlot: () => 0,
  getMaxRetransmitSlot: (chain) => chain.slot('processed'),
  getMaxShredInsertSlot: (chain) => chain.slot('processed'),
};
