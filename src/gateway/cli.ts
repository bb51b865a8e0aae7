#!/usr/bin/env node
/**
 * svc-gateway: run the gateway and manage merchants.
 *   svc-gateway start [--port 4000] [--database PATH|postgres://...] [--rpc URL] [--commitment confirmed|finalized] [--currency SYMBOL=MINT ...]
 *   svc-gateway merchant create --database PATH --name NAME --recipient WALLET [--webhook-url URL] [--mode test|live] [--logo-url URL] [--json]
 *   svc-gateway merchant list [--database PATH] [--json]
 *   svc-gateway merchant update --merchant ID [--name NAME] [--logo-url URL] [--webhook-url URL] [--database PATH] [--json]
 *   svc-gateway merchant rotate-key --merchant ID [--publishable] [--database PATH] [--json]
 *   svc-gateway merchant rotate-webhook-secret --merchant ID [--database PATH] [--json]
 * Flags fall back to the environment (PORT, DATABASE_URL, SOLANA_RPC_URL, COMMITMENT, CURRENCIES).
 */
import { parseArgs } from 'node:util';
import { ConfigError, configFromFlagsAndEnv } from './config.js';
import { startGateway } from './gateway.js';
import { createMerchantRecord, MerchantInputError, rotateApiKey, rotateWebhookSecret, updateMerchantRecord } from './merchants.js';
import { openStore } from './store/index.js';

const USAGE = `usage:
  svc-gateway start [--port 4000] [--host 127.0.0.1] [--database PATH|postgres://URL] [--rpc URL] [--commitment confirmed|finalized] [--currency SYMBOL=MINT ...] [--metrics-port PORT]
  svc-gateway merchant create --name NAME --recipient WALLET [--webhook-url URL] [--mode test|live] [--logo-url URL] [--database PATH] [--json]
  svc-gateway merchant list [--database PATH] [--json]
  svc-gateway merchant update --merchant ID [--name NAME] [--logo-url URL] [--webhook-url URL] [--database PATH] [--json]
                              (an empty --logo-url or --webhook-url removes it)
  svc-gateway merchant rotate-key --merchant ID [--publishable] [--database PATH] [--json]
  svc-gateway merchant rotate-webhook-secret --merchant ID [--database PATH] [--json]
environment: PORT, HOST, DATABASE_URL, SOLANA_RPC_URL, COMMITMENT, CURRENCIES (SYMBOL=MINT,...), METRICS_TOKEN, METRICS_PORT, METRICS_HOST`;

class UsageError extends Error {}

/** The database for the start-up line: the SQLite path, or the PostgreSQL URL without its password. */
function describeDatabase(config: { databasePath: string; databaseUrl: string | null }): string {
  if (!config.databaseUrl) return config.databasePath;
  try {
    const url = new URL(config.databaseUrl);
    if (url.password) url.password = '***';
    return `${url.toString()} (PostgreSQL)`;
  } catch {
    return 'PostgreSQL';
  }
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'metrics-port': { type: 'string' },
  database: { type: 'string' },
  rpc: { type: 'string' },
  commitment: { type: 'string' },
  currency: { type: 'string', multiple: true },
  name: { type: 'string' },
  recipient: { type: 'string' },
  'webhook-url': { type: 'string' },
  'logo-url': { type: 'string' },
  mode: { type: 'string' },
  merchant: { type: 'string' },
  publishable: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, sub] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const config = configFromFlagsAndEnv({
    ...(values.port !== undefined && { port: values.port }),
    ...(values.host !== undefined && { host: values.host }),
    ...(values['metrics-port'] !== undefined && { metricsPort: values['metrics-port'] }),
    ...(values.database !== undefined && { database: values.database }),
    ...(values.rpc !== undefined && { rpc: values.rpc }),
    ...(values.commitment !== undefined && { commitment: values.commitment }),
    ...(values.currency !== undefined && { currency: values.currency }),
  });

  if (command === 'start') {
    const gateway = await startGateway(config);
    if (gateway.metricsUrl) console.error(`svc-gateway metrics on ${gateway.metricsUrl}/metrics`);
    console.error(
      `svc-gateway listening on ${gateway.url} (database ${describeDatabase(config)}, rpc ${config.rpcUrl}, commitment ${config.commitment}, currencies SOL${config.currencies.map((c) => ', ' + c.symbol).join('')})`,
    );
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.error(`svc-gateway: ${signal}, shutting down`);
      gateway.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    return;
  }

  if (command !== 'merchant') throw new UsageError(`unknown command "${command}"`);
  const store = await openStore(config);
  try {
    if (sub === 'create') {
      if (!values.name || !values.recipient) throw new UsageError('merchant create needs --name and --recipient');
      const mode = values.mode ?? 'test';
      if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live');
      const created = await createMerchantRecord(store, {
        name: values.name,
        recipient: values.recipient,
        mode,
        ...(values['webhook-url'] && { webhookUrl: values['webhook-url'] }),
        ...(values['logo-url'] && { logoUrl: values['logo-url'] }),
      });
      if (values.json) console.log(JSON.stringify(created));
      else {
        console.log(`merchant        ${created.merchantId}`);
        console.log(`secret key      ${created.secretKey}`);
        console.log(`publishable key ${created.publishableKey}`);
        console.log(`webhook secret  ${created.webhookSecret}`);
        console.log('Keys are shown only once: store them now.');
      }
    } else if (sub === 'list') {
      const merchants = await store.listMerchants();
      const rows = await Promise.all(
        merchants.map(async (m) => ({
          id: m.id,
          name: m.name,
          recipient: m.recipient,
          mode: m.mode,
          webhookUrl: m.webhook_url,
          webhookDisabled: m.webhook_disabled === 1,
          keys: (await store.listApiKeys(m.id)).map((k) => ({ kind: k.kind, prefix: k.prefix, revoked: k.revoked_at !== null })),
          createdAt: m.created_at,
        })),
      );
      if (values.json) console.log(JSON.stringify(rows));
      else for (const r of rows) console.log(`${r.id}  ${r.mode}  ${r.recipient}  ${r.name}${r.webhookUrl ? '  ' + r.webhookUrl : ''}`);
    } else if (sub === 'update') {
      if (!values.merchant) throw new UsageError('merchant update needs --merchant ID');
      const m = await updateMerchantRecord(store, values.merchant, {
        ...(values.name !== undefined && { name: values.name }),
        ...(values['logo-url'] !== undefined && { logoUrl: values['logo-url'] }),
        ...(values['webhook-url'] !== undefined && { webhookUrl: values['webhook-url'] }),
      });
      const shown = { id: m.id, name: m.name, logoUrl: m.logo_url, webhookUrl: m.webhook_url, webhookDisabled: m.webhook_disabled === 1 };
      if (values.json) console.log(JSON.stringify(shown));
      else console.log(`${m.id}  ${m.name}  logo ${m.logo_url ?? '-'}  webhook ${m.webhook_url ?? '-'}`);
    } else if (sub === 'rotate-key') {
      if (!values.merchant) throw new UsageError('merchant rotate-key needs --merchant ID');
      const kind = values.publishable ? 'publishable' : 'secret';
      const key = await rotateApiKey(store, values.merchant, kind);
      console.log(values.json ? JSON.stringify({ merchantId: values.merchant, [kind === 'secret' ? 'secretKey' : 'publishableKey']: key }) : key);
    } else if (sub === 'rotate-webhook-secret') {
      if (!values.merchant) throw new UsageError('merchant rotate-webhook-secret needs --merchant ID');
      const secret = await rotateWebhookSecret(store, values.merchant);
      console.log(values.json ? JSON.stringify({ merchantId: values.merchant, webhookSecret: secret }) : secret);
    } else {
      throw new UsageError(`unknown merchant command "${sub ?? ''}"`);
    }
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof MerchantInputError || (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
    console.error(`svc-gateway: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`svc-gateway: ${(error as Error)?.message ?? String(error)}`);
  process.exit(1);
});
