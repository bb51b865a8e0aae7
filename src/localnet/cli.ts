#!/usr/bin/env node
/**
 * svc-localnet: a local Solana chain for development and tests.
 *   svc-localnet start [--port 8899] [--host 127.0.0.1] [--json] [--slot-ms 400] [--finalization-depth 32]
 *   svc-localnet airdrop <address> [--sol N] [--usdc N] [--rpc URL]
 *   svc-localnet pay "<solana: URL>" [--rpc URL] [--keypair FILE]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Connection, Keypair } from '@solana/web3.js';
import { isPublicKey } from '../core/base58.js';
import { parseTransferRequestUrl } from '../core/solana-pay.js';
import { TransferError } from '../solana/transfer.js';
import { airdrop } from './airdrop.js';
import { payUrl, startLocalnet } from './index.js';

const DEFAULT_RPC = 'http://127.0.0.1:8899';
const USAGE = `usage:
  svc-localnet start [--port 8899] [--host 127.0.0.1] [--json] [--slot-ms 400] [--finalization-depth 32]
  svc-localnet airdrop <address> [--sol N] [--usdc N] [--rpc ${DEFAULT_RPC}]
  svc-localnet pay "<solana: URL>" [--rpc ${DEFAULT_RPC}] [--keypair FILE]`;

class UsageError extends Error {}

function readKeypair(file: string): Keypair {
  let bytes: unknown;
  try {
    bytes = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read keypair file ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(bytes) || bytes.length !== 64 || !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new UsageError(`${file} is not a Solana keypair file (a JSON array of 64 bytes, as solana-keygen writes)`);
  }
  return Keypair.fromSecretKey(Uint8Array.from(bytes as number[]));
}

function integerOption(value: string, name: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

function rpcUrl(value: string | undefined): string {
  const url = value ?? DEFAULT_RPC;
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--rpc must be an http(s) URL, got ${JSON.stringify(url)}`);
  return url;
}

async function start(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8899' },
      host: { type: 'string', default: '127.0.0.1' },
      json: { type: 'boolean', default: false },
      'slot-ms': { type: 'string', default: '400' },
      'finalization-depth': { type: 'string', default: '32' },
    },
  });
  const port = integerOption(values.port, '--port', 0, 65535);
  const slotMs = integerOption(values['slot-ms'], '--slot-ms', 1, 3_600_000);
  const finalizationDepth = integerOption(values['finalization-depth'], '--finalization-depth', 1, 10_000);
  const net = await startLocalnet({ port, host: values.host, slotMs, finalizationDepth, log: (line) => console.error(line) });
  if (values.json) process.stdout.write(`${JSON.stringify({ rpcUrl: net.rpcUrl, usdcMint: net.usdcMint })}\n`);
  else console.error(`svc-localnet listening on ${net.rpcUrl} (websocket ${net.wsUrl})\nUSDC mint ${net.usdcMint} (6 decimals)\nCtrl-C to stop`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await net.close();
}

async function runAirdrop(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { sol: { type: 'string' }, usdc: { type: 'string' }, rpc: { type: 'string' } } });
  const [address, ...extra] = positionals;
  if (!address || extra.length) throw new UsageError('airdrop needs exactly one address');
  if (!isPublicKey(address)) throw new UsageError(`${JSON.stringify(address)} is not a base58 Solana address`);
  if (values.sol === undefined && values.usdc === undefined) throw new UsageError('airdrop needs --sol N and/or --usdc N');
  const connection = new Connection(rpcUrl(values.rpc), 'confirmed');
  const result = await airdrop(connection, address, { ...(values.sol !== undefined ? { sol: values.sol } : {}), ...(values.usdc !== undefined ? { usdc: values.usdc } : {}) });
  for (const [asset, signature] of Object.entries(result)) console.log(`${asset} ${signature}`);
}

async function runPay(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { rpc: { type: 'string' }, keypair: { type: 'string' } } });
  const [url, ...extra] = positionals;
  if (!url || extra.length) throw new UsageError('pay needs exactly one solana: URL (quote it in the shell)');
  const payer = values.keypair ? readKeypair(values.keypair) : undefined;
  const rpc = rpcUrl(values.rpc);
  let paid;
  try {
    paid = await payUrl(url, { rpcUrl: rpc, ...(payer ? { payer } : {}) });
  } catch (error) {
    if (error instanceof TransferError && error.code === 'recipient_token_account_not_found') {
      const recipient = parseTransferRequestUrl(url).recipient;
      error.message += `; create it with: svc-localnet airdrop ${recipient} --usdc 0 --rpc ${rpc} (localnet USDC) or Localnet.createTokenAccount()`;
    }
    throw error;
  }
  const { signature, payer: payerAddress } = paid;
  console.error(`paid from ${payerAddress}`);
  console.log(signature);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'start') return start(rest);
  if (command === 'airdrop') return runAirdrop(rest);
  if (command === 'pay') return runPay(rest);
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return;
  }
  throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : 'no command given');
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`svc-localnet: ${message}`);
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(USAGE);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
