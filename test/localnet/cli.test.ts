/** The svc-localnet command line, run as a separate process exactly as a developer would. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Connection, Keypair, PublicKey, type ParsedInstruction } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { newAddress } from './helpers.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = ['--import', 'tsx', 'src/localnet/cli.ts'];

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('svc-localnet CLI', () => {
  let server: ChildProcess;
  let rpcUrl: string;
  let usdcMint: string;
  let connection: Connection;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-localnet-'));
    server = spawn(process.execPath, [...CLI, 'start', '--port', '0', '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout! }).once('line', resolve);
      server.once('exit', (code) => reject(new Error(`svc-localnet start exited with ${code}`)));
    });
    const ready = JSON.parse(line) as { rpcUrl: string; usdcMint: string };
    assert.deepEqual(Object.keys(ready), ['rpcUrl', 'usdcMint']);
    ({ rpcUrl, usdcMint } = ready);
    connection = new Connection(rpcUrl, 'confirmed');
  });

  after(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('start --json prints the fixed USDC mint and a working RPC URL', async () => {
    assert.equal(usdcMint, 'Hf7Jg1itJqfvUc6dxsM5AFg9HVv4RFnEPrp3ytxoqWbt');
    assert.match(rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(typeof (await connection.getSlot()), 'number');
  });

  it('airdrop funds SOL and USDC, creating the token account', async () => {
    const owner = newAddress();
    const result = await run(['airdrop', owner.toBase58(), '--sol', '2.5', '--usdc', '40', '--rpc', rpcUrl]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^sol \w+\nusdc \w+\n$/);
    assert.equal(await connection.getBalance(owner), 2_500_000_000);
    const balance = await connection.getTokenAccountBalance(getAssociatedTokenAddressSync(new PublicKey(usdcMint), owner));
    assert.equal(balance.value.uiAmountString, '40');
  });

  it('pay sends the SOL transfer a wallet would, with reference and memo', async () => {
    const recipient = newAddress();
    const reference = newAddress();
    const url = `solana:${recipient.toBase58()}?amount=0.25&reference=${reference.toBase58()}&label=Shop&memo=order%20%2342`;
    const result = await run(['pay', url, '--rpc', rpcUrl]);
    assert.equal(result.code, 0, result.stderr);
    const signature = result.stdout.trim();
    assert.equal(await connection.getBalance(recipient), 250_000_000);
    const [found] = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    assert.equal(found?.signature, signature);
    assert.equal(found?.memo, '[9] order #42');
    const tx = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const [memo, transfer] = tx?.transaction.message.instructions as ParsedInstruction[];
    assert.equal(memo?.parsed, 'order #42');
    assert.equal(transfer?.parsed.type, 'transfer');
  });

  it('pay sends a USDC transfer from a keypair file', async () => {
    const payer = Keypair.generate();
    const keyFile = join(dir, 'payer.json');
    writeFileSync(keyFile, JSON.stringify([...payer.secretKey]));
    const funded = await run(['airdrop', payer.publicKey.toBase58(), '--sol', '1', '--usdc', '10', '--rpc', rpcUrl]);
    assert.equal(funded.code, 0, funded.stderr);
    const recipient = newAddress();
    assert.equal((await run(['airdrop', recipient.toBase58(), '--usdc', '0', '--rpc', rpcUrl])).code, 0);
    const reference = newAddress();
    const url = `solana:${recipient.toBase58()}?amount=3.5&spl-token=${usdcMint}&reference=${reference.toBase58()}&memo=inv-9`;
    const result = await run(['pay', url, '--rpc', rpcUrl, '--keypair', keyFile]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`paid from ${payer.publicKey.toBase58()}`));
    const mint = new PublicKey(usdcMint);
    assert.equal((await connection.getTokenAccountBalance(getAssociatedTokenAddressSync(mint, recipient))).value.uiAmountString, '3.5');
    assert.equal((await connection.getTokenAccountBalance(getAssociatedTokenAddressSync(mint, payer.publicKey))).value.uiAmountString, '6.5');
    const [found] = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    assert.equal(found?.signature, result.stdout.trim());
    assert.equal(found?.memo, '[5] inv-9');
  });

  it('pay with a throwaway payer funds it with the URL token', async () => {
    const recipient = newAddress();
    assert.equal((await run(['airdrop', recipient.toBase58(), '--usdc', '0', '--rpc', rpcUrl])).code, 0);
    const result = await run(['pay', `solana:${recipient.toBase58()}?amount=1.000001&spl-token=${usdcMint}`, '--rpc', rpcUrl]);
    assert.equal(result.code, 0, result.stderr);
    const balance = await connection.getTokenAccountBalance(getAssociatedTokenAddressSync(new PublicKey(usdcMint), recipient));
    assert.equal(balance.value.amount, '1000001');
  });

  it('fails with a clear message and a non-zero exit on bad input', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['pay', 'solana:notakey?amount=1', '--rpc', rpcUrl], /not a valid Solana address/],
      [['pay', `solana:${newAddress().toBase58()}?amount=1.1234567891`, '--rpc', rpcUrl], /decimal places/],
      [['pay', `solana:${newAddress().toBase58()}`, '--rpc', rpcUrl], /no amount/],
      [['pay', `solana:${newAddress().toBase58()}?amount=1&spl-token=${usdcMint}`, '--rpc', rpcUrl], /has no token account .* create it with: svc-localnet airdrop/],
      [['pay', `solana:${newAddress().toBase58()}?amount=1`, '--rpc', rpcUrl, '--keypair', join(dir, 'missing.json')], /cannot read keypair file/],
      [['airdrop', 'xyz', '--sol', '1', '--rpc', rpcUrl], /not a base58 Solana address/],
      [['airdrop', newAddress().toBase58(), '--rpc', rpcUrl], /--sol N and\/or --usdc N/],
      [['airdrop', newAddress().toBase58(), '--sol', '-1', '--rpc', rpcUrl], /sol/],
      [['airdrop', newAddress().toBase58(), '--sol', '1', '--rpc', 'ftp://x'], /--rpc must be an http/],
      [['frobnicate'], /unknown command/],
      [['start', '--port', 'abc'], /--port must be/],
      [['start', '--slot-ms', '0'], /--slot-ms must be an integer from 1/],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      assert.notEqual(result.code, 0, `${args.join(' ')} should fail`);
      assert.match(result.stderr, message, args.join(' '));
      assert.equal(result.stdout, '', args.join(' '));
    }
  });

  it('start exits cleanly (code 0) on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
