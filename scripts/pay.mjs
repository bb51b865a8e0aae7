#!/usr/bin/env node
// `npm run pay`: pays the newest pending payment of the demo merchant from the local chain's
// throwaway payer, as a customer's wallet would. For use while `npm start` runs.
import { readFileSync } from 'node:fs';
import { SvcClient } from 'svc-checkout/server';
import { payUrl } from '../dist/localnet/index.js';

const root = new URL('..', import.meta.url).pathname;
const dataDir = process.env.DATA_DIR ?? `${root}data`;
const merchant = JSON.parse(readFileSync(`${dataDir}/demo/merchant.json`, 'utf8'));
const client = new SvcClient({ apiKey: merchant.secretKey, baseUrl: process.env.GATEWAY_URL ?? 'http://127.0.0.1:4000' });
const rpcUrl = process.env.SOLANA_RPC_URL ?? 'http://127.0.0.1:8899';

const { data } = await client.payments.list({ status: 'pending', limit: 1 });
if (data.length === 0) {
  console.error('No pending payment: open a checkout page first.');
  process.exit(1);
}
const { signature } = await payUrl(data[0].url, { rpcUrl });
console.log(`Paid ${data[0].id} (${data[0].amount} ${data[0].currency}): ${signature}`);
