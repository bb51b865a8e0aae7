/** The merchant commands of the svc-gateway CLI, run as real processes against a real database (SQLite file or PostgreSQL). */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, dbAll, type TestDatabase } from '../helpers/db.js';

let dir: string;
const databases: TestDatabase[] = [];
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-cli-'));
});
after(async () => {
  for (const d of databases) await d.drop();
  await rm(dir, { recursive: true, force: true });
});

async function newDatabase(name: string): Promise<string> {
  const d = await createTestDatabase(dir, name);
  databases.push(d);
  return d.target;
}

it('creates, lists and rotates merchants; stores only hashes of keys', async () => {
  const db = await newDatabase('g');
  const recipient = Keypair.generate().publicKey.toBase58();
  const { stdout } = await runCli(['merchant', 'create', '--database', db, '--name', 'Café', '--recipient', recipient, '--mode', 'live', '--json']);
  const created = JSON.parse(stdout) as Record<string, string>;
  assert.deepEqual(Object.keys(created).sort(), ['merchantId', 'publishableKey', 'secretKey', 'webhookSecret']);
  assert.match(created.secretKey!, /^svc_live_[0-9A-Za-z]{43}$/);
  assert.match(created.publishableKey!, /^svc_pk_live_[0-9A-Za-z]{43}$/);
  assert.match(created.webhookSecret!, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(created.webhookSecret!.slice(6), 'base64').length, 32);

  const dump = JSON.stringify(await dbAll(db, 'SELECT * FROM api_keys'));
  assert.ok(!dump.includes(created.secretKey!) && !dump.includes(created.publishableKey!), 'plain keys are never stored');

  const list = JSON.parse((await runCli(['merchant', 'list', '--database', db, '--json'])).stdout);
  assert.equal(list.length, 1);
  assert.equal(list[0].id, created.merchantId);
  assert.equal(list[0].name, 'Café');
  assert.ok(!JSON.stringify(list).includes(created.secretKey!), 'listing never shows keys');

  const rotated = JSON.parse((await runCli(['merchant', 'rotate-key', '--database', db, '--merchant', created.merchantId!, '--json'])).stdout);
  assert.match(rotated.secretKey, /^svc_live_/);
  assert.notEqual(rotated.secretKey, created.secretKey);
  const keys = JSON.parse((await runCli(['merchant', 'list', '--database', db, '--json'])).stdout)[0].keys;
  assert.equal(keys.filter((k: { kind: string; revoked: boolean }) => k.kind === 'secret' && !k.revoked).length, 1);

  const secret = JSON.parse((await runCli(['merchant', 'rotate-webhook-secret', '--database', db, '--merchant', created.merchantId!, '--json'])).stdout);
  assert.match(secret.webhookSecret, /^whsec_/);
  const live = await dbAll<{ secret: string; expires_at: string | null }>(db, 'SELECT secret, expires_at FROM webhook_secrets ORDER BY id');
  assert.equal(live.length, 2);
  assert.ok(live[0]!.expires_at && Date.parse(live[0]!.expires_at) > Date.now() + 23 * 3600_000, 'old secret signs for 24 h more');
  assert.equal(live[1]!.expires_at, null);
});

it('refuses bad input with a usage error and exit code 2', async () => {
  const db = await newDatabase('bad');
  await assert.rejects(runCli(['merchant', 'create', '--database', db, '--name', 'X', '--recipient', 'not-a-key', '--json']), (e: { code: number; stderr: string }) => {
    assert.equal(e.code, 2);
    assert.match(e.stderr, /recipient is not a Solana address/);
    return true;
  });
  await assert.rejects(runCli(['start', '--commitment', 'processed']), (e: { code: number; stderr: string }) => {
    assert.equal(e.code, 2);
    assert.match(e.stderr, /commitment must be/);
    return true;
  });
});
