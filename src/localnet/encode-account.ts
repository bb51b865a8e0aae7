/** The account object of getAccountInfo / getMultipleAccounts / getProgramAccounts-like answers. */
import type { AccountInfo, PublicKey } from '@solana/web3.js';
import { encodeBase58 } from '../core/base58.js';
import { decodeMint, decodeTokenAccount, uiTokenAmount } from './token-state.js';
import { RpcError } from './rpc-error.js';

export type AccountEncoding = 'base58' | 'base64' | 'jsonParsed';

/** Every account reports rentEpoch u64::MAX now that rent collection is gone (real nodes do too). */
const RENT_EXEMPT_EPOCH = 18446744073709551615n;

export function parseAccountEncoding(value: unknown, fallback: AccountEncoding): AccountEncoding {
  if (value === undefined || value === null) return fallback;
  if (value === 'base58' || value === 'binary') return 'base58';
  if (value === 'base64' || value === 'jsonParsed') return value;
  if (value === 'base64+zstd') throw RpcError.invalidParams('base64+zstd encoding is not supported by the localnet; use base64');
  throw RpcError.invalidParams(`Invalid params: unknown variant \`${String(value)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\``);
}

export interface DataSlice {
  offset: number;
  length: number;
}

export function encodeAccount(
  address: PublicKey,
  info: AccountInfo<Uint8Array>,
  encoding: AccountEncoding,
  options: { dataSlice?: DataSlice | undefined; decimalsOf: (mint: PublicKey) => number },
): Record<string, unknown> {
  const { dataSlice, decimalsOf } = options;
  const full = info.data;
  const data = dataSlice ? full.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length) : full;
  let encoded: unknown;
  if (encoding === 'jsonParsed' && !dataSlice) encoded = parsedData(info, decimalsOf) ?? [Buffer.from(data).toString('base64'), 'base64'];
  else if (encoding === 'base58') {
    if (data.length > 128) throw RpcError.invalidParams('Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
    encoded = [encodeBase58(data), 'base58'];
  } else encoded = [Buffer.from(data).toString('base64'), 'base64'];
  return {
    data: encoded,
    executable: info.executable,
    lamports: BigInt(info.lamports),
    owner: info.owner.toBase58(),
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: full.length,
  };
}

function parsedData(info: AccountInfo<Uint8Array>, decimalsOf: (mint: PublicKey) => number): Record<string, unknown> | null {
  const program = info.owner.toBase58() === 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' ? 'spl-token' : 'spl-token-2022';
  const token = decodeTokenAccount(info.owner, info.data);
  if (token) {
    // Token-2022 extensions: only ImmutableOwner (what associated accounts carry) is decoded;
    // accounts with others fall back to base64.
    const extensions = info.data.length > 165 ? accountExtensions(info.data) : [];
    if (extensions === null) return null;
    return {
      program,
      parsed: {
        info: {
          isNative: token.isNative,
          mint: token.mint.toBase58(),
          owner: token.owner.toBase58(),
          state: token.state,
          tokenAmount: uiTokenAmount(token.amount, decimalsOf(token.mint)),
          ...(token.delegate ? { delegate: token.delegate.toBase58(), delegatedAmount: uiTokenAmount(token.delegatedAmount, decimalsOf(token.mint)) } : {}),
          ...(token.closeAuthority ? { closeAuthority: token.closeAuthority.toBase58() } : {}),
          ...(extensions.length ? { extensions } : {}),
        },
        type: 'account',
      },
      space: info.data.length,
    };
  }
  const mint = decodeMint(info.owner, info.data);
  if (mint && info.data.length === 82) {
    return {
      program,
      parsed: {
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority?.toBase58() ?? null,
          isInitialized: mint.isInitialized,
          mintAuthority: mint.mintAuthority?.toBase58() ?? null,
          supply: mint.supply.toString(),
        },
        type: 'mint',
      },
      space: info.data.length,
    };
  }
  return null;
}

/** The TLV extensions after a Token-2022 account's type byte, or null if one is not understood. */
function accountExtensions(data: Uint8Array): Array<{ extension: string }> | null {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const out: Array<{ extension: string }> = [];
  let offset = 166;
  while (offset + 4 <= view.length) {
    const type = view.readUInt16LE(offset);
    const length = view.readUInt16LE(offset + 2);
    if (type === 0 && length === 0) break; // padding
    if (type !== 7 || length !== 0) return null;
    out.push({ extension: 'immutableOwner' });
    offset += 4 + length;
  }
  return out;
}
