/** Transaction methods: send, simulate, statuses, signatures by address, getTransaction, airdrops. */
import { SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { decodeBase58, encodeBase58 } from '../core/base58.js';
import { STATUS_CACHE_SLOTS, type Commitment, type LocalChain, type SimulationResult, type TxRecord } from './chain.js';
import { faucetKeypair } from './dev-keys.js';
import { encodeAccount, parseAccountEncoding } from './encode-account.js';
import { encodeTransactionResult, type TransactionEncoding } from './encode-transaction.js';
import { commitmentParam, configParam, confirmedOrFinalized, optionalBool, pubkeyParam, signatureParam, typeName, u64Param } from './params.js';
import { RPC_CODES, RpcError } from './rpc-error.js';
import { checkMinContextSlot, context, mintDecimals, type Handler } from './rpc-context.js';

const PACKET_DATA_SIZE = 1232;
const MAX_BASE58_TX = 1683;
const MAX_BASE64_TX = 1644;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_LIMIT = 1000;

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

export const TRANSACTION_METHODS: Record<string, Handler> = {
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
