/**
 * The `jsonParsed` view of an instruction, for the programs our flows use: System,
 * SPL Token / Token-2022, Associated Token Account and Memo. Everything else (and any
 * instruction these parsers do not know) is shown "partially decoded", as real nodes do
 * for programs they cannot parse: {programId, accounts, data (base58), stackHeight}.
 */
import { encodeBase58 } from '../core/base58.js';
import { uiTokenAmount } from './token-state.js';

const SYSTEM = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const ATA = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const MEMO_V2 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
const MEMO_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';

type Parsed = { type: string; info: Record<string, unknown> } | string;

export interface UiInstruction {
  programId: string;
  stackHeight: number | null;
  program?: string;
  parsed?: Parsed;
  accounts?: string[];
  data?: string;
}

/** Thrown by a parser when the bytes do not match the instruction; the caller falls back. */
class Unparsable extends Error {}

function reader(data: Uint8Array) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  const need = (n: number) => {
    if (offset + n > data.length) throw new Unparsable('short data');
  };
  return {
    u8(): number {
      need(1);
      return view.getUint8(offset++);
    },
    u16(): number {
      need(2);
      const v = view.getUint16(offset, true);
      offset += 2;
      return v;
    },
    u32(): number {
      need(4);
      const v = view.getUint32(offset, true);
      offset += 4;
      return v;
    },
    u64(): bigint {
      need(8);
      const v = view.getBigUint64(offset, true);
      offset += 8;
      return v;
    },
    key(): string {
      need(32);
      const v = encodeBase58(data.subarray(offset, offset + 32));
      offset += 32;
      return v;
    },
    remaining(): number {
      return data.length - offset;
    },
  };
}

function account(accounts: string[], i: number): string {
  const key = accounts[i];
  if (key === undefined) throw new Unparsable('missing account');
  return key;
}

function parseSystem(accounts: string[], data: Uint8Array): Parsed {
  const r = reader(data);
  switch (r.u32()) {
    case 0:
      return {
        type: 'createAccount',
        info: { source: account(accounts, 0), newAccount: account(accounts, 1), lamports: r.u64(), space: r.u64(), owner: r.key() },
      };
    case 1:
      return { type: 'assign', info: { account: account(accounts, 0), owner: r.key() } };
    case 2:
      return { type: 'transfer', info: { source: account(accounts, 0), destination: account(accounts, 1), lamports: r.u64() } };
    case 8:
      return { type: 'allocate', info: { account: account(accounts, 0), space: r.u64() } };
    default:
      throw new Unparsable('system instruction not parsed here');
  }
}

const EXTENSION_NAMES: Record<number, string> = { 7: 'immutableOwner' };

function parseToken(accounts: string[], data: Uint8Array): Parsed {
  const r = reader(data);
  switch (r.u8()) {
    case 3:
      return {
        type: 'transfer',
        info: { source: account(accounts, 0), destination: account(accounts, 1), authority: account(accounts, 2), amount: r.u64().toString() },
      };
    case 7:
      return {
        type: 'mintTo',
        info: { mint: account(accounts, 0), account: account(accounts, 1), mintAuthority: account(accounts, 2), amount: r.u64().toString() },
      };
    case 12: {
      const amount = r.u64();
      return {
        type: 'transferChecked',
        info: {
          source: account(accounts, 0),
          mint: account(accounts, 1),
          destination: account(accounts, 2),
          authority: account(accounts, 3),
          tokenAmount: uiTokenAmount(amount, r.u8()),
        },
      };
    }
    case 14: {
      const amount = r.u64();
      return {
        type: 'mintToChecked',
        info: { mint: account(accounts, 0), account: account(accounts, 1), mintAuthority: account(accounts, 2), tokenAmount: uiTokenAmount(amount, r.u8()) },
      };
    }
    case 18:
      return { type: 'initializeAccount3', info: { account: account(accounts, 0), mint: account(accounts, 1), owner: r.key() } };
    case 21: {
      const extensionTypes: string[] = [];
      while (r.remaining() >= 2) {
        const t = r.u16();
        extensionTypes.push(EXTENSION_NAMES[t] ?? `unknown${t}`);
      }
      return { type: 'getAccountDataSize', info: extensionTypes.length ? { mint: account(accounts, 0), extensionTypes } : { mint: account(accounts, 0) } };
    }
    case 22:
      return { type: 'initializeImmutableOwner', info: { account: account(accounts, 0) } };
    default:
      throw new Unparsable('token instruction not parsed here');
  }
}

function parseAta(accounts: string[], data: Uint8Array): Parsed {
  const kind = data.length === 0 ? 0 : data[0];
  if (kind !== 0 && kind !== 1) throw new Unparsable('ata instruction not parsed here');
  return {
    type: kind === 0 ? 'create' : 'createIdempotent',
    info: {
      source: account(accounts, 0),
      account: account(accounts, 1),
      wallet: account(accounts, 2),
      mint: account(accounts, 3),
      systemProgram: account(accounts, 4),
      tokenProgram: account(accounts, 5),
    },
  };
}

function parseMemo(data: Uint8Array): Parsed {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new Unparsable('memo is not utf-8');
  }
}

const PARSERS: Record<string, { name: string; parse: (accounts: string[], data: Uint8Array) => Parsed }> = {
  [SYSTEM]: { name: 'system', parse: parseSystem },
  [TOKEN]: { name: 'spl-token', parse: parseToken },
  [TOKEN_2022]: { name: 'spl-token-2022', parse: parseToken },
  [ATA]: { name: 'spl-associated-token-account', parse: parseAta },
  [MEMO_V2]: { name: 'spl-memo', parse: (_accounts, data) => parseMemo(data) },
  [MEMO_V1]: { name: 'spl-memo', parse: (_accounts, data) => parseMemo(data) },
};

export function parseInstruction(programId: string, accounts: string[], data: Uint8Array, stackHeight: number | null): UiInstruction {
  const parser = PARSERS[programId];
  if (parser) {
    try {
      return { parsed: parser.parse(accounts, data), program: parser.name, programId, stackHeight };
    } catch (error) {
      if (!(error instanceof Unparsable)) throw error;
    }
  }
  return { accounts, data: encodeBase58(data), programId, stackHeight };
}
