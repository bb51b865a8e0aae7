/** Parameter readers that fail with the -32602 messages real nodes give. */
import { PublicKey } from '@solana/web3.js';
import { decodeBase58 } from '../core/base58.js';
import { RpcError } from './rpc-error.js';
import type { Commitment } from './chain.js';

export type Params = unknown[];

export function asParams(value: unknown): Params {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw RpcError.invalidParams('Invalid params: invalid type: map, expected a sequence');
  return value;
}

export function pubkeyParam(value: unknown): PublicKey {
  if (typeof value !== 'string') throw RpcError.invalidParams(`Invalid params: invalid type: ${typeName(value)}, expected a string`);
  let bytes: Uint8Array;
  try {
    if (value.length > 44) throw new Error('too long');
    bytes = decodeBase58(value);
  } catch {
    throw RpcError.invalidParams('Invalid param: Invalid');
  }
  if (bytes.length !== 32) throw RpcError.invalidParams('Invalid param: WrongSize');
  return new PublicKey(bytes);
}

export function signatureParam(value: unknown): string {
  if (typeof value !== 'string') throw RpcError.invalidParams(`Invalid params: invalid type: ${typeName(value)}, expected a string`);
  let bytes: Uint8Array;
  try {
    if (value.length > 88) throw new Error('too long');
    bytes = decodeBase58(value);
  } catch {
    throw RpcError.invalidParams('Invalid param: Invalid');
  }
  if (bytes.length !== 64) throw RpcError.invalidParams('Invalid param: WrongSize');
  return value;
}

export function configParam(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw RpcError.invalidParams(`Invalid params: invalid type: ${typeName(value)}, expected a map`);
  }
  return value as Record<string, unknown>;
}

const COMMITMENTS: Record<string, Commitment> = {
  processed: 'processed',
  confirmed: 'confirmed',
  finalized: 'finalized',
  // Deprecated names real nodes still map.
  recent: 'processed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  root: 'finalized',
  max: 'finalized',
};

/** Real nodes default to `finalized` when no commitment is given. */
export function commitmentParam(config: Record<string, unknown>): Commitment {
  const value = config.commitment;
  if (value === undefined || value === null) return 'finalized';
  const found = typeof value === 'string' ? COMMITMENTS[value] : undefined;
  if (!found) {
    throw RpcError.invalidParams(
      `Invalid params: unknown variant \`${String(value)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``,
    );
  }
  return found;
}

/** getTransaction and getSignaturesForAddress refuse `processed`, as real nodes do. */
export function confirmedOrFinalized(config: Record<string, unknown>): Commitment {
  const commitment = commitmentParam(config);
  if (commitment === 'processed') throw RpcError.invalidParams('Method does not support commitment below `confirmed`');
  return commitment;
}

export function u64Param(value: unknown, name: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n && value <= 0xffff_ffff_ffff_ffffn) return value;
  throw RpcError.invalidParams(`Invalid params: invalid type for ${name}: ${typeName(value)}, expected u64`);
}

export function optionalBool(config: Record<string, unknown>, key: string): boolean {
  const value = config[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw RpcError.invalidParams(`Invalid params: invalid type: ${typeName(value)}, expected a boolean`);
  return value;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'sequence';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  return typeof value;
}
