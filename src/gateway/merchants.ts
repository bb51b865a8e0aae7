/**
 * Merchant accounts and their credentials. The plain keys leave this module exactly once, in the
 * return value of createMerchant / rotateApiKeys; only their SHA-256 hashes are stored.
 */
import { PublicKey } from '@solana/web3.js';
import { newKeyId, newMerchantId } from './ids.js';
import {
  generatePublishableKey,
  generateSecretKey,
  generateWebhookSecret,
  hashCredential,
  keyPrefix,
  type KeyKind,
  type KeyMode,
} from './keys.js';
import type { ApiKeyRow, MerchantPatch, MerchantRow, Store } from './store/store.js';

export interface CreateMerchantInput {
  name: string;
  recipient: string;
  webhookUrl?: string;
  mode?: KeyMode;
  logoUrl?: string;
  defaultExpiresIn?: number;
}

export interface MerchantCredentials {
  merchantId: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

export class MerchantInputError extends Error {}

export function isWalletAddress(value: string): boolean {
  try {
    return new PublicKey(value).toBase58() === value;
  } catch {
    return false;
  }
}

function checkHttpUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MerchantInputError(`${what} is not a valid URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new MerchantInputError(`${what} must be http(s): ${value}`);
  return url.toString();
}

function keyRow(merchantId: string, kind: KeyKind, mode: KeyMode, key: string, now: string): ApiKeyRow {
  return { id: newKeyId(), merchant_id: merchantId, kind, mode, hash: hashCredential(key), prefix: keyPrefix(key), revoked_at: null, created_at: now };
}

export async function createMerchantRecord(store: Store, input: CreateMerchantInput): Promise<MerchantCredentials> {
  const name = input.name?.trim();
  if (!name || name.length > 100) throw new MerchantInputError('name is required (1 to 100 characters)');
  if (!isWalletAddress(input.recipient)) throw new MerchantInputError(`recipient is not a Solana address: ${input.recipient}`);
  const mode = input.mode ?? 'test';
  if (mode !== 'test' && mode !== 'live') throw new MerchantInputError('mode must be test or live');
  const webhookUrl = input.webhookUrl ? checkHttpUrl(input.webhookUrl, 'webhook URL') : null;
  const logoUrl = input.logoUrl ? checkHttpUrl(input.logoUrl, 'logo URL') : null;
  const now = new Date().toISOString();
  const merchant: MerchantRow = {
    id: newMerchantId(),
    name,
    logo_url: logoUrl,
    recipient: input.recipient,
    webhook_url: webhookUrl,
    webhook_disabled: 0,
    mode,
    default_expires_in: input.defaultExpiresIn ?? 900,
    created_at: now,
  };
  const secretKey = generateSecretKey(mode);
  const publishableKey = generatePublishableKey(mode);
  const webhookSecret = generateWebhookSecret();
  await store.insertMerchant(
    merchant,
    [keyRow(merchant.id, 'secret', mode, secretKey, now), keyRow(merchant.id, 'publishable', mode, publishableKey, now)],
    webhookSecret,
  );
  return { merchantId: merchant.id, secretKey, publishableKey, webhookSecret };
}

export interface UpdateMerchantInput {
  name?: string;
  /** An empty string removes the logo. */
  logoUrl?: string;
  /** An empty string removes the webhook endpoint (events are then recorded but not sent). */
  webhookUrl?: string;
}

/**
 * Changes a merchant's profile. A new webhook URL also re-enables an endpoint disabled by a 410;
 * deliveries still waiting go to the new URL (the worker reads the URL at each attempt).
 */
export async function updateMerchantRecord(store: Store, merchantId: string, input: UpdateMerchantInput): Promise<MerchantRow> {
  const patch: MerchantPatch = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name || name.length > 100) throw new MerchantInputError('name must be 1 to 100 characters');
    patch.name = name;
  }
  if (input.logoUrl !== undefined) patch.logo_url = input.logoUrl === '' ? null : checkHttpUrl(input.logoUrl, 'logo URL');
  if (input.webhookUrl !== undefined) {
    patch.webhook_url = input.webhookUrl === '' ? null : checkHttpUrl(input.webhookUrl, 'webhook URL');
    patch.webhook_disabled = 0;
  }
  if (Object.keys(patch).length === 0) throw new MerchantInputError('nothing to update: give --name, --logo-url or --webhook-url');
  if (!(await store.updateMerchant(merchantId, patch))) throw new MerchantInputError(`no merchant ${merchantId}`);
  return (await store.getMerchant(merchantId))!;
}

/** Replaces the merchant's secret (or publishable) key; the old one stops working at once. */
export async function rotateApiKey(store: Store, merchantId: string, kind: KeyKind = 'secret'): Promise<string> {
  const merchant = await store.getMerchant(merchantId);
  if (!merchant) throw new MerchantInputError(`no merchant ${merchantId}`);
  const now = new Date().toISOString();
  const key = kind === 'secret' ? generateSecretKey(merchant.mode) : generatePublishableKey(merchant.mode);
  await store.replaceApiKey(keyRow(merchantId, kind, merchant.mode, key, now), now);
  return key;
}

/** New webhook secret; the old one keeps signing alongside it for `overlapMs` (24 h by default). */
export async function rotateWebhookSecret(store: Store, merchantId: string, overlapMs = 24 * 3600_000): Promise<string> {
  const merchant = await store.getMerchant(merchantId);
  if (!merchant) throw new MerchantInputError(`no merchant ${merchantId}`);
  const now = Date.now();
  const secret = generateWebhookSecret();
  await store.rotateWebhookSecret(merchantId, secret, new Date(now).toISOString(), new Date(now + overlapMs).toISOString());
  return secret;
}
