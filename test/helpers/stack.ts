/**
 * The whole stack for integration tests: a localnet (port 0), a merchant whose wallet holds SOL
 * and has a USDC token account, and a gateway (port 0, a fresh database: SQLite file in a temp dir,
 * or a new PostgreSQL database with SVC_TEST_DATABASE=postgres, see db.ts) with a fast watcher and
 * a compressed webhook schedule. Used by the gateway, SDK and element tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { createMerchant, startGateway, type GatewayOptions, type RunningGateway } from '../../src/gateway/index.js';
import { startLocalnet, type Localnet } from '../../src/localnet/index.js';
import { createTestDatabase } from './db.js';

export interface StackOptions {
  commitment?: 'confirmed' | 'finalized';
  webhookUrl?: string;
  mode?: 'test' | 'live';
  webhookRetryScheduleMs?: number[];
  /** Extra gateway options (watcher, rate limits...). */
  gateway?: Partial<GatewayOptions>;
  /** Localnet slot time (default 50 ms so tests run fast) and finalization depth. */
  slotMs?: number;
  finalizationDepth?: number;
}

export interface Stack {
  rpcUrl: string;
  usdcMint: string;
  gatewayUrl: string;
  localnet: Localnet;
  gateway: RunningGateway;
  merchant: { id: string; secretKey: string; publishableKey: string; webhookSecret: string; recipient: string; wallet: Keypair };
  /** The gateway's database: SQLite file path or postgres:// URL (db.ts reads both). */
  dbPath: string;
  stop(): Promise<void>;
}

/** Gateway settings that make tests quick: checks every 100 ms, webhooks retried within a second. */
export const FAST_GATEWAY: Partial<GatewayOptions> = {
  watcher: { tickMs: 50, minCheckIntervalMs: 100, lateIntervalMs: 200, batchSize: 200, concurrency: 8 },
  webhooks: { retryScheduleMs: [100, 200, 400, 800], jitter: 0, timeoutMs: 2_000, leaseMs: 3_000, pollMs: 50 },
  rateLimits: { perPayment: { ratePerSecond: 50, burst: 100 }, perClient: { ratePerSecond: 500, burst: 1000 } },
  log: () => {},
};

export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const localnet = await startLocalnet({
    port: 0,
    slotMs: opts.slotMs ?? 50,
    ...(opts.finalizationDepth !== undefined && { finalizationDepth: opts.finalizationDepth }),
  });
  const dir = await mkdtemp(join(tmpdir(), 'svc-stack-'));
  const database = await createTestDatabase(dir).catch(async (error: unknown) => {
    await localnet.close();
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  try {
    const wallet = Keypair.generate();
    const recipient = wallet.publicKey.toBase58();
    await localnet.airdrop(recipient, { sol: 1, usdc: 0 });
    const dbPath = database.target;
    const created = await createMerchant(
      { databasePath: dbPath },
      { name: 'Stack Shop', recipient, mode: opts.mode ?? 'test', ...(opts.webhookUrl && { webhookUrl: opts.webhookUrl }) },
    );
    const base = FAST_GATEWAY;
    const gateway = await startGateway({
      ...base,
      ...opts.gateway,
      rpcUrl: localnet.rpcUrl,
      databasePath: dbPath,
      port: 0,
      commitment: opts.commitment ?? 'confirmed',
      currencies: [{ symbol: 'USDC', mint: localnet.usdcMint }, ...(opts.gateway?.currencies ?? [])],
      webhooks: { ...base.webhooks, ...opts.gateway?.webhooks, ...(opts.webhookRetryScheduleMs && { retryScheduleMs: opts.webhookRetryScheduleMs }) },
    });
    return {
      rpcUrl: localnet.rpcUrl,
      usdcMint: localnet.usdcMint,
      gatewayUrl: gateway.url,
      localnet,
      gateway,
      merchant: {
        id: created.merchantId,
        secretKey: created.secretKey,
        publishableKey: created.publishableKey,
        webhookSecret: created.webhookSecret,
        recipient,
        wallet,
      },
      dbPath,
      async stop() {
        await gateway.close();
        await localnet.close();
        await database.drop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await localnet.close();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
