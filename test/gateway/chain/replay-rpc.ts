/**
 * A JSON-RPC server on 127.0.0.1 that replays the recorded devnet/mainnet getTransaction answers in
 * test/fixtures/solana-rpc/ (a copy of ../shared/fixtures/solana-rpc), so the checks run on exactly what @solana/web3.js makes of a real node's JSON.
 * (Mainnet cannot be reached from tests; DESIGN's standards allow a replay of recordings for it.)
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Connection } from '@solana/web3.js';

const FIXTURES = new URL('../../fixtures/solana-rpc/', import.meta.url);

export interface RecordedTransaction {
  file: string;
  encoding: 'json' | 'jsonParsed';
  /** The getTransaction `result`, as the node sent it. */
  result: RecordedResult;
}

/** The raw JSON shape, for deriving expectations in tests (keys are base58 strings here). */
export interface RecordedResult {
  slot: number;
  blockTime: number | null;
  meta: {
    err: unknown;
    preBalances: number[];
    postBalances: number[];
    preTokenBalances: RecordedTokenBalance[];
    postTokenBalances: RecordedTokenBalance[];
    loadedAddresses?: { writable: string[]; readonly: string[] };
  };
  transaction: {
    signatures: string[];
    message: {
      accountKeys: Array<string | { pubkey: string; signer: boolean; writable: boolean; source?: string }>;
      header?: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
      instructions: unknown[];
    };
  };
}

export interface RecordedTokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number };
}

export function loadRecordedTransactions(): Map<string, RecordedTransaction> {
  const recorded = new Map<string, RecordedTransaction>();
  for (const file of readdirSync(FIXTURES)) {
    if (!file.endsWith('.json') || file.startsWith('getSignaturesForAddress')) continue;
    const json = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as RecordedResult | { result: RecordedResult };
    const result = 'result' in json ? json.result : json;
    renameReadableIndexes(result);
    recorded.set(file, { file, encoding: file.includes('jsonParsed') ? 'jsonParsed' : 'json', result });
  }
  return recorded;
}

/**
 * The MetaMask recordings were TypeScript literals that spell the lookup field `readableIndexes`; a real node
 * (and the agave recording) says `readonlyIndexes`, and @solana/web3.js rejects anything else. Same values.
 */
function renameReadableIndexes(result: RecordedResult): void {
  const lookups = (result.transaction.message as { addressTableLookups?: Array<Record<string, unknown>> }).addressTableLookups ?? [];
  for (const lookup of lookups) {
    if ('readableIndexes' in lookup && !('readonlyIndexes' in lookup)) {
      lookup.readonlyIndexes = lookup.readableIndexes;
      delete lookup.readableIndexes;
    }
  }
}

export interface ReplayRpc {
  connection: Connection;
  /** Requests received, by method. */
  calls: Map<string, number>;
  close(): Promise<void>;
}

export async function startReplayRpc(recorded: Iterable<RecordedTransaction>): Promise<ReplayRpc> {
  const bySignature = new Map<string, RecordedTransaction>();
  for (const tx of recorded) bySignature.set(tx.result.transaction.signatures[0] ?? '', tx);
  const calls = new Map<string, number>();

  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const request = JSON.parse(body) as { id: unknown; method: string; params: [string, { encoding?: string }?] };
      calls.set(request.method, (calls.get(request.method) ?? 0) + 1);
      const reply = (payload: object) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...payload }));
      };
      if (request.method !== 'getTransaction') return reply({ error: { code: -32601, message: 'Method not found' } });
      const [signature, config] = request.params;
      const tx = bySignature.get(signature);
      const encoding = config?.encoding ?? 'json';
      if (tx === undefined) return reply({ result: null });
      if (tx.encoding !== encoding) {
        return reply({ error: { code: -32602, message: `recorded only as ${tx.encoding}, asked for ${encoding}` } });
      }
      return reply({ result: tx.result });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const connection = new Connection(`http://127.0.0.1:${port}`, { commitment: 'confirmed', disableRetryOnRateLimit: true });
  return {
    connection,
    calls,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
