/**
 * A gateway without a chain, for HTTP-level tests that need no Solana (SOL payments are created
 * without RPC): the RPC URL points at a closed port, so every chain check fails, which by design
 * never changes a payment. A fresh database (SQLite file in a temp dir, or PostgreSQL: db.ts), port 0.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { createTestDatabase } from './db.js';
import { createMerchant, startGateway, type GatewayOptions, type MerchantCredentials, type RunningGateway } from '../../src/gateway/index.js';

export interface BareGateway {
  url: string;
  gateway: RunningGateway;
  /** SQLite file path or postgres:// URL. */
  dbPath: string;
  merchant: MerchantCredentials & { recipient: string };
  addMerchant(input?: { mode?: 'test' | 'live'; name?: string; webhookUrl?: string }): Promise<MerchantCredentials & { recipient: string }>;
  stop(): Promise<void>;
}

export const CLOSED_RPC = 'http://127.0.0.1:9';

export async function startBareGateway(
  opts: Partial<GatewayOptions> & { mode?: 'test' | 'live'; webhookUrl?: string } = {},
): Promise<BareGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-gw-'));
  const database = await createTestDatabase(dir);
  const dbPath = database.target;
  const { mode, webhookUrl, ...gatewayOpts } = opts;
  const addMerchant: BareGateway['addMerchant'] = async (input = {}) => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const created = await createMerchant(
      { databasePath: dbPath },
      { name: input.name ?? 'Test Shop', recipient, mode: input.mode ?? mode ?? 'test', ...(input.webhookUrl && { webhookUrl: input.webhookUrl }) },
    );
    return { ...created, recipient };
  };
  const merchant = await addMerchant({ ...(webhookUrl && { webhookUrl }) });
  const gateway = await startGateway({
    rpcUrl: CLOSED_RPC,
    databasePath: dbPath,
    port: 0,
    log: () => {},
    ...gatewayOpts,
  });
  return {
    url: gateway.url,
    gateway,
    dbPath,
    merchant,
    addMerchant,
    async stop() {
      await gateway.close();
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
