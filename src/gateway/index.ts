/** Programmatic API of the gateway (package export "./gateway"). */
import { createMerchantRecord, type CreateMerchantInput, type MerchantCredentials } from './merchants.js';
import { openStore } from './store/index.js';

export { startGateway, type GatewayOptions, type RunningGateway } from './gateway.js';
export { configFromFlagsAndEnv, defaultConfig, type GatewayConfig, type CurrencyConfig, type Commitment } from './config.js';
export { rotateApiKey, rotateWebhookSecret, type CreateMerchantInput, type MerchantCredentials } from './merchants.js';

/** Creates a merchant in the database (migrating it if new). The returned keys are shown only once. */
export async function createMerchant(
  config: { databasePath: string; databaseUrl?: string | null },
  input: CreateMerchantInput,
): Promise<MerchantCredentials> {
  const store = await openStore(config);
  try {
    return await createMerchantRecord(store, input);
  } finally {
    await store.close();
  }
}
