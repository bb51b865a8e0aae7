/**
 * The Solana JSON-RPC methods the localnet answers, with real nodes' parameters, result
 * shapes, defaults (commitment `finalized`, encodings) and error codes.
 */
import {
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { decodeBase58, encodeBase58 } from '../core/base58.js';
import { STATUS_CACHE_SLOTS, type Commitment, type LocalChain, type SimulationResult, type TxRecord } from './chain.js';
import { faucetKeypair } from './dev-keys.js';
import { BLOCK_METHODS } from './methods-blocks.js';
import { API_VERSION, API_VERSION_INFO } from './version.js';
import { feeForMessage } from './fees.js';
import { encodeAccount, parseAccountEncoding, type DataSlice } from './encode-account.js';
import { encodeTransactionResult, type TransactionEncoding } from './encode-transaction.js';
import {
  asParams,
  commitmentParam,
  configParam,
  confirmedOrFinalized,
  optionalBool,
  pubkeyParam,
  signatureParam,
  typeName,
  u64Param,
  type Params,
} from './params.js';
import { RPC_CODES, RpcError } from './rpc-error.js';
import { decodeMint, decodeTokenAccount, uiTokenAmount } from './token-state.js';

const PACKET_DATA_SIZE = 1232;
const MAX_BASE58_TX = 1683;
const MAX_BASE64_TX = 1644;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_LIMIT = 1000;

type Handler = (chain: LocalChain, params: Params) => unknown;

function context(chain: LocalChain, commitment: Commitment) {
  return { apiVersion: API_VERSION, slot: chain.slot(commitment) };
}

function withContext(chain: LocalChain, config: Record<string, unknown>, value: unknown) {
  const commitment = commitmentParam(config);
  checkMinContextSlot(chain, config, commitment);
  return { context: context(chain, commitment), value };
}

function checkMinContextSlot(chain: LocalChain, config: Record<string, unknown>, commitment: Commitment): void {
  const min = config.minContextSlot;
  if (min === undefined || min === null) return;
  if (typeof min !== 'number' || !Number.isSafeInteger(min) || min < 0) throw RpcError.invalidParams('Invalid params: minContextSlot must be a u64');
  const slot = chain.slot(commitment);
  if (slot < min) throw new RpcError(RPC_CODES.minContextSlotNotReached, 'Minimum context slot has not been reached', { contextSlot: slot });
}

function mintDecimals(chain: LocalChain): (mint: PublicKey) => number {
  return (mint) => {
    const account = chain.getAccount(mint);
    return (account && decodeMint(account.owner, account.data)?.decimals) ?? 0;
  };
}

function dataSliceParam(config: Record<string, unknown>): DataSlice | undefined {
  const slice = config.dataSlice;
  if (slice === undefined || slice === null) return undefined;
  const { offset, length } = slice as { offset?: unknown; length?: unknown };
  if (typeof offset !== 'number' || typeof length !== 'number' || offset < 0 || length < 0) {
    throw RpcError.invalidParams('Invalid params: dataSlice needs non-negative offset and length');
  }
  return { offset, length };
}

function accountValue(chain: LocalChain, address: PublicKey, config: Record<string, unknown>): unknown {
  const info = chain.getAccount(address);
  if (!info) return null;
  return encodeAccount(address, info, parseAccountEncoding(config.encoding, 'base58'), {
    dataSlice: dataSliceParam(config),
    decimalsOf: mintDecimals(chain),
  });
}

// ---- transactions in wire form ---------------------------------------------------------

function decodeWireTransaction(encoded: unknown, config: Record<string, unknown>): VersionedTransaction {
  if (typeof encoded !== 'string') throw RpcError.invalidParams(`Invalid params: invalid type: ${typeName(encoded)}, expected a string`);
  const encoding = config.encoding ?? 'base58';
  let bytes: Uint8Array;
  if (encoding === 'base58') {
    if (encoded.length > MAX_BASE58_TX) {
      throw RpcError.invalidParams(`base58 encoded solana_transaction::versioned::VersionedTransaction too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_TX}/${PACKET_DATA_SIZE})`);
    }
    try {
      bytes = decodeBase58(encoded);
    } catch {
      throw RpcError.invalidParams('invalid base58 encoding: InvalidCharacter');
    }
  } else if (encoding === 'base64') {
    if (encoded.length > MAX_BASE64_TX) {
      throw RpcError.invalidParams(`base64 encoded solana_transaction::versioned::VersionedTransaction too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_TX}/${PACKET_DATA_SIZE})`);
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) throw RpcError.invalidParams('invalid base64 encoding: InvalidByte');
    bytes = Buffer.from(encoded, 'base64');
  } else {
    throw RpcError.invalidParams(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
  }
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(bytes);
  } catch (error) {
    throw RpcError.invalidParams(`failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`);
  }
  if (tx.signatures.length !== tx.message.header.numRequiredSignatures || tx.signatures.length === 0) {
    throw RpcError.invalidParams('invalid transaction: Transaction failed to sanitize accounts offsets correctly');
  }
  return tx;
}

/** getProgramAccounts filters: {dataSize} and {memcmp: {offset, bytes, encoding?}}. */
function accountFilter(filter: unknown): (data: Uint8Array) => boolean {
  const f = configParam(filter);
  if (typeof f.dataSize === 'number') {
    const size = f.dataSize;
    return (data) => data.length === size;
  }
  const memcmp = f.memcmp as { offset?: unknown; bytes?: unknown; encoding?: unknown } | undefined;
  if (memcmp && typeof memcmp.offset === 'number' && typeof memcmp.bytes === 'string') {
    let bytes: Uint8Array;
    try {
      bytes = memcmp.encoding === 'base64' ? Buffer.from(memcmp.bytes, 'base64') : decodeBase58(memcmp.bytes);
    } catch {
      throw RpcError.invalidParams('Invalid param: invalid memcmp bytes');
    }
    const offset = memcmp.offset;
    return (data) => data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);
  }
  throw RpcError.invalidParams('Invalid params: filters must be {dataSize} or {memcmp: {offset, bytes}}');
}

function simulationValue(chain: LocalChain, sim: SimulationResult, config: Record<string, unknown>, tx: VersionedTransaction) {
  const accountsConfig = configParam(config.accounts);
  let accounts: unknown = null;
  if (Array.isArray(accountsConfig.addresses)) {
    const encoding = parseAccountEncoding(accountsConfig.encoding, 'base64');
    accounts = accountsConfig.addresses.map((a) => {
      const key = pubkeyParam(a);
      const info = sim.postAccounts.get(key.toBase58()) ?? chain.getAccount(key);
      return info && info.lamports > 0 ? encodeAccount(key, info, encoding, { decimalsOf: mintDecimals(chain) }) : null;
    });
  }
  const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
  return {
    accounts,
    err: sim.error?.json ?? null,
    innerInstructions: optionalBool(config, 'innerInstructions')
      ? sim.innerInstructions.map(({ index, instructions }) => ({
          index,
          instructions: instructions.map((ix) => ({ accounts: ix.accounts, data: encodeBase58(ix.data), programIdIndex: ix.programIdIndex, stackHeight: ix.stackHeight, programId: keys[ix.programIdIndex] })),
        }))
      : null,
    loadedAccountsDataSize: 0,
    logs: sim.logs,
    replacementBlockhash: null as unknown,
    returnData: sim.returnData ? { programId: sim.returnData.programId, data: [Buffer.from(sim.returnData.data).toString('base64'), 'base64'] } : null,
    unitsConsumed: sim.unitsConsumed,
  };
}

function statusOf(chain: LocalChain, record: TxRecord) {
  const finalized = chain.isFinalized(record.slot);
  return {
    confirmationStatus: finalized ? 'finalized' : 'confirmed',
    confirmations: finalized ? null : chain.slot('confirmed') - record.slot,
    err: record.err,
    slot: record.slot,
    status: record.err === null ? { Ok: null } : { Err: record.err },
  };
}

function visibleAt(chain: LocalChain, record: TxRecord, commitment: Commitment): boolean {
  return commitment !== 'finalized' || chain.isFinalized(record.slot);
}

function refuseUnrunnable(chain: LocalChain, tx: VersionedTransaction): void {
  const refused = chain.refusal(tx);
  if (refused) throw new RpcError(RPC_CODES.sendTransactionPreflightFailure, `Transaction simulation failed: ${refused}`, { err: 'InvalidProgramForExecution', logs: [refused] });
}

// ---- the methods -----------------------------------------------------------------------

export const METHODS: Record<string, Handler> = {
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
  getBlockHeight: (chain, params) => METHODS.getSlot?.(chain, params),
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

  getBalance: (chain, params) => {
    const address = pubkeyParam(params[0]);
    return withContext(chain, configParam(params[1]), BigInt(chain.getAccount(address)?.lamports ?? 0));
  },
  getAccountInfo: (chain, params) => {
    const address = pubkeyParam(params[0]);
    const config = configParam(params[1]);
    return withContext(chain, config, accountValue(chain, address, config));
  },
  getMultipleAccounts: (chain, params) => {
    if (!Array.isArray(params[0])) throw RpcError.invalidParams('Invalid params: expected an array of addresses');
    if (params[0].length > MAX_MULTIPLE_ACCOUNTS) {
      throw RpcError.invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    }
    const keys = params[0].map(pubkeyParam);
    const config = configParam(params[1]);
    return withContext(chain, config, keys.map((key) => accountValue(chain, key, config)));
  },
  getTokenAccountBalance: (chain, params) => {
    const address = pubkeyParam(params[0]);
    const account = chain.getAccount(address);
    if (!account) throw RpcError.invalidParams('Invalid param: could not find account');
    const token = decodeTokenAccount(account.owner, account.data);
    if (!token) throw RpcError.invalidParams('Invalid param: not a Token account');
    return withContext(chain, configParam(params[1]), uiTokenAmount(token.amount, mintDecimals(chain)(token.mint)));
  },
  getTokenSupply: (chain, params) => {
    const address = pubkeyParam(params[0]);
    const account = chain.getAccount(address);
    const mint = account ? decodeMint(account.owner, account.data) : null;
    if (!mint) throw RpcError.invalidParams('Invalid param: not a Token mint');
    return withContext(chain, configParam(params[1]), uiTokenAmount(mint.supply, mint.decimals));
  },
  getTokenAccountsByOwner: (chain, params) => {
    const owner = pubkeyParam(params[0]);
    const filter = configParam(params[1]);
    const config = configParam(params[2]);
    let mint: PublicKey | null = null;
    let programs: PublicKey[];
    if (filter.mint !== undefined) {
      mint = pubkeyParam(filter.mint);
      const mintAccount = chain.getAccount(mint);
      if (!mintAccount) throw RpcError.invalidParams('Invalid param: could not find mint');
      programs = [mintAccount.owner];
    } else if (filter.programId !== undefined) {
      const programId = pubkeyParam(filter.programId);
      if (!programId.equals(TOKEN_PROGRAM_ID) && !programId.equals(TOKEN_2022_PROGRAM_ID)) throw RpcError.invalidParams('Invalid param: unrecognized Token program id');
      programs = [programId];
    } else {
      throw RpcError.invalidParams('Invalid params: expected a mint or programId filter');
    }
    const value: unknown[] = [];
    for (const address of chain.knownAddresses()) {
      const key = new PublicKey(address);
      const info = chain.getAccount(key);
      if (!info || !programs.some((p) => p.equals(info.owner))) continue;
      const token = decodeTokenAccount(info.owner, info.data);
      if (!token || !token.owner.equals(owner) || (mint && !token.mint.equals(mint))) continue;
      value.push({ account: encodeAccount(key, info, parseAccountEncoding(config.encoding, 'base58'), { decimalsOf: mintDecimals(chain) }), pubkey: address });
    }
    return withContext(chain, config, value);
  },

  getProgramAccounts: (chain, params) => {
    const programId = pubkeyParam(params[0]);
    const config = configParam(params[1]);
    const filters = config.filters ?? [];
    if (!Array.isArray(filters) || filters.length > 4) throw RpcError.invalidParams('Too many filters provided; max 4');
    const tests = filters.map(accountFilter);
    const encoding = parseAccountEncoding(config.encoding, 'base58');
    const value: unknown[] = [];
    for (const address of chain.knownAddresses()) {
      const key = new PublicKey(address);
      const info = chain.getAccount(key);
      if (!info || !info.owner.equals(programId) || !tests.every((test) => test(info.data))) continue;
      value.push({ account: encodeAccount(key, info, encoding, { dataSlice: dataSliceParam(config), decimalsOf: mintDecimals(chain) }), pubkey: address });
    }
    return optionalBool(config, 'withContext') ? withContext(chain, config, value) : value;
  },

  requestAirdrop: (chain, params) => {
    const address = pubkeyParam(params[0]);
    const lamports = u64Param(params[1], 'lamports');
    if (lamports === 0n) throw RpcError.invalidParams('Invalid params: lamports must be positive');
    const faucet = faucetKeypair();
    const message = new TransactionMessage({
      payerKey: faucet.publicKey,
      recentBlockhash: chain.latestBlockhash('confirmed').blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: faucet.publicKey, toPubkey: address, lamports })],
    }).compileToLegacyMessage();
    const tx = new VersionedTransaction(message);
    tx.sign([faucet]);
    const outcome = chain.send(tx);
    if (!outcome.landed || outcome.record.err !== null) {
      throw new RpcError(RPC_CODES.internalError, `airdrop request failed: ${outcome.landed ? JSON.stringify(outcome.record.err) : outcome.error.message}`);
    }
    return outcome.record.signature;
  },

  sendTransaction: (chain, params) => {
    const config = configParam(params[1]);
    const tx = decodeWireTransaction(params[0], config);
    refuseUnrunnable(chain, tx);
    checkMinContextSlot(chain, config, 'processed');
    if (!chain.verifySignatures(tx)) throw new RpcError(RPC_CODES.transactionSignatureVerificationFailure, 'Transaction signature verification failure');
    if (!optionalBool(config, 'skipPreflight')) {
      const sim = chain.simulate(tx);
      if (sim.error) {
        throw new RpcError(RPC_CODES.sendTransactionPreflightFailure, `Transaction simulation failed: ${sim.error.message}`, simulationValue(chain, sim, {}, tx));
      }
    }
    const outcome = chain.send(tx);
    // With skipPreflight a node forwards whatever it gets; a transaction that cannot land
    // (expired blockhash, no fee) is simply dropped and its signature never confirms.
    return outcome.landed ? outcome.record.signature : encodeBase58(tx.signatures[0] as Uint8Array);
  },
  simulateTransaction: (chain, params) => {
    const config = configParam(params[1]);
    const tx = decodeWireTransaction(params[0], config);
    refuseUnrunnable(chain, tx);
    const sigVerify = optionalBool(config, 'sigVerify');
    const replace = optionalBool(config, 'replaceRecentBlockhash');
    if (sigVerify && replace) throw RpcError.invalidParams('sigVerify may not be used with replaceRecentBlockhash');
    if (sigVerify && !chain.verifySignatures(tx)) throw new RpcError(RPC_CODES.transactionSignatureVerificationFailure, 'Transaction signature verification failure');
    const commitment = commitmentParam(config);
    checkMinContextSlot(chain, config, commitment);
    const sim = chain.simulate(tx, { replaceRecentBlockhash: replace });
    const value = simulationValue(chain, sim, config, tx);
    if (replace) {
      const { blockhash, lastValidBlockHeight } = chain.latestBlockhash('confirmed');
      value.replacementBlockhash = { blockhash, lastValidBlockHeight };
    }
    return { context: context(chain, commitment), value };
  },

  getSignatureStatuses: (chain, params) => {
    if (!Array.isArray(params[0])) throw RpcError.invalidParams('Invalid params: expected an array of signatures');
    if (params[0].length > MAX_SIGNATURE_STATUSES) throw RpcError.invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
    const signatures = params[0].map(signatureParam);
    const searchHistory = optionalBool(configParam(params[1]), 'searchTransactionHistory');
    const now = chain.slot('confirmed');
    const value = signatures.map((signature) => {
      const record = chain.getRecord(signature);
      if (!record) return null;
      // Without searchTransactionHistory a node answers only from its recent status cache.
      if (!searchHistory && now - record.slot > STATUS_CACHE_SLOTS) return null;
      return statusOf(chain, record);
    });
    return { context: context(chain, 'confirmed'), value };
  },
  getSignaturesForAddress: (chain, params) => {
    const address = pubkeyParam(params[0]);
    const config = configParam(params[1]);
    const commitment = confirmedOrFinalized(config);
    checkMinContextSlot(chain, config, commitment);
    const limit = config.limit ?? MAX_SIGNATURES_LIMIT;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_LIMIT) {
      throw RpcError.invalidParams(`Invalid limit; max ${MAX_SIGNATURES_LIMIT}`);
    }
    const before = config.before == null ? null : signatureParam(config.before);
    const until = config.until == null ? null : signatureParam(config.until);
    // Like Agave 2.2: `before` and `until` may name any transaction (their position in the ledger
    // bounds the list); an unknown `before` gives an empty list, an unknown `until` no lower bound.
    const beforeRecord = before === null ? null : chain.getRecord(before);
    if (before !== null && !beforeRecord) return [];
    const untilSequence = until === null ? 0 : (chain.getRecord(until)?.sequence ?? 0);
    const beforeSequence = beforeRecord?.sequence ?? Infinity;
    const records = chain.recordsFor(address.toBase58());
    const out: unknown[] = [];
    for (let i = records.length - 1; i >= 0 && out.length < limit; i--) {
      const record = records[i] as TxRecord;
      if (record.sequence >= beforeSequence) continue;
      if (record.sequence <= untilSequence) break;
      if (!visibleAt(chain, record, commitment)) continue;
      out.push({
        blockTime: record.blockTime,
        confirmationStatus: chain.isFinalized(record.slot) ? 'finalized' : 'confirmed',
        err: record.err,
        memo: record.memo,
        signature: record.signature,
        slot: record.slot,
      });
    }
    return out;
  },
  getTransaction: (chain, params) => {
    const signature = signatureParam(params[0]);
    const config = typeof params[1] === 'string' ? { encoding: params[1] } : configParam(params[1]);
    const commitment = confirmedOrFinalized(config);
    const encoding = (config.encoding ?? 'json') as TransactionEncoding | 'binary';
    if (!['json', 'jsonParsed', 'base64', 'base58', 'binary'].includes(encoding)) {
      throw RpcError.invalidParams(`Invalid params: unknown variant \`${String(encoding)}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\``);
    }
    const maxVersion = config.maxSupportedTransactionVersion;
    if (maxVersion !== undefined && maxVersion !== null && maxVersion !== 0) {
      throw RpcError.invalidParams('Invalid params: maxSupportedTransactionVersion must be 0');
    }
    const record = chain.getRecord(signature);
    if (!record || !visibleAt(chain, record, commitment)) return null;
    if (record.transaction.version === 0 && (maxVersion === undefined || maxVersion === null)) {
      throw new RpcError(
        RPC_CODES.unsupportedTransactionVersion,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    }
    return encodeTransactionResult(record, encoding === 'binary' ? 'base58' : encoding, { includeVersion: maxVersion === 0 });
  },
};

/** Localnet-only methods (no real node has them); prefixed so they never clash with Solana's. */
export const LOCALNET_METHODS: Record<string, Handler> = {
  /** [owner, mint] -> the owner's associated token account, created empty if missing. */
  localnet_createAssociatedTokenAccount: (chain, params) => {
    const owner = pubkeyParam(params[0]);
    const mint = pubkeyParam(params[1]);
    try {
      return chain.createAssociatedTokenAccount(owner, mint).toBase58();
    } catch (error) {
      throw RpcError.invalidParams(`Invalid param: ${(error as Error).message}`);
    }
  },
};
Object.assign(METHODS, BLOCK_METHODS, LOCALNET_METHODS);

export function dispatch(chain: LocalChain, method: string, rawParams: unknown): unknown {
  const handler = Object.prototype.hasOwnProperty.call(METHODS, method) ? METHODS[method] : undefined;
  if (!handler) throw new RpcError(RPC_CODES.methodNotFound, 'Method not found');
  return handler(chain, asParams(rawParams));
}
