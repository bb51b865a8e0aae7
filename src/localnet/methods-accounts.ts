/** Account methods: balances, account data (base58, base64, jsonParsed), token accounts, program scans. */
import { PublicKey } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { decodeBase58 } from '../core/base58.js';
import type { LocalChain } from './chain.js';
import { encodeAccount, parseAccountEncoding, type DataSlice } from './encode-account.js';
import { commitmentParam, configParam, optionalBool, pubkeyParam } from './params.js';
import { RpcError } from './rpc-error.js';
import { mintDecimals, withContext, type Handler } from './rpc-context.js';
import { decodeMint, decodeTokenAccount, uiTokenAmount } from './token-state.js';

const MAX_MULTIPLE_ACCOUNTS = 100;

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
  const info = chain.getAccountAt(address, commitmentParam(config));
  if (!info) return null;
  return encodeAccount(address, info, parseAccountEncoding(config.encoding, 'base58'), {
    dataSlice: dataSliceParam(config),
    decimalsOf: mintDecimals(chain),
  });
}

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

export const ACCOUNT_METHODS: Record<string, Handler> = {
  getBalance: (chain, params) => {
    const address = pubkeyParam(params[0]);
    const config = configParam(params[1]);
    return withContext(chain, config, BigInt(chain.getAccountAt(address, commitmentParam(config))?.lamports ?? 0));
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
    const account = chain.getAccountAt(address, commitmentParam(configParam(params[1])));
    if (!account) throw RpcError.invalidParams('Invalid param: could not find account');
    const token = decodeTokenAccount(account.owner, account.data);
    if (!token) throw RpcError.invalidParams('Invalid param: not a Token account');
    return withContext(chain, configParam(params[1]), uiTokenAmount(token.amount, mintDecimals(chain)(token.mint)));
  },
  getTokenSupply: (chain, params) => {
    const address = pubkeyParam(params[0]);
    const account = chain.getAccountAt(address, commitmentParam(configParam(params[1])));
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
      const mintAccount = chain.getAccountAt(mint, commitmentParam(config));
      if (!mintAccount) throw RpcError.invalidParams('Invalid param: could not find mint');
      programs = [mintAccount.owner];
    } else if (filter.programId !== undefined) {
      const programId = pubkeyParam(filter.programId);
      if (!programId.equals(TOKEN_PROGRAM_ID) && !programId.equals(TOKEN_2022_PROGRAM_ID)) throw RpcError.invalidParams('Invalid param: unrecognized Token program id');
      programs = [programId];
    } else {
      throw RpcError.invalidParams('Invalid params: expected a mint or programId filter');
    }
    const commitment = commitmentParam(config);
    const value: unknown[] = [];
    for (const address of chain.knownAddresses()) {
      const key = new PublicKey(address);
      const info = chain.getAccountAt(key, commitment);
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
    const commitment = commitmentParam(config);
    const value: unknown[] = [];
    for (const address of chain.knownAddresses()) {
      const key = new PublicKey(address);
      const info = chain.getAccountAt(key, commitment);
      if (!info || !info.owner.equals(programId) || !tests.every((test) => test(info.data))) continue;
      value.push({ account: encodeAccount(key, info, encoding, { dataSlice: dataSliceParam(config), decimalsOf: mintDecimals(chain) }), pubkey: address });
    }
    return optionalBool(config, 'withContext') ? withContext(chain, config, value) : value;
  },
};

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
