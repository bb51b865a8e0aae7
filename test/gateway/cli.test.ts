/** The merchant commands of the svc-gateway CLI, run as real processes against a real SQLite file. */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { runCli } from '../helpers/cli.js';
import { withDb } from '../helpers/db.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-cli-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('creates, lists and rotates merchants; stores only hashes of keys', async () => {
  const db = join(dir, 'g.db');
  const recipient = Keypair.generate().publicKey.toBase58();
  const { stdout } = await runCli(['merchant', 'create', '--database', db, '--name', 'Café', '--recipient', recipient, '--mode', 'live', '--json']);
  const created = JSON.parse(stdout) as Record<string, string>;
  assert.deepEqual(Object.keys(created).sort(), ['merchantId', 'publishableKey', 'secretKey', 'webhookSecret']);
  assert.match(created.secretKey!, /^svc_live_[0-9A-Za-z]{43}$/);
  assert.match(created.publishableKey!, /^svc_pk_live_[0-9A-Za-z]{43}$/);
  assert.match(created.webhookSecret!, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(created.webhookSecret!.slice(6), 'base64').length, 32);

  const dump = withDb(db, (h) => JSON.stringify(h.prepare('SELECT * FROM api_keys').all()));
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
  const live = withDb(db, (h) => h.prepare('SELECT secret, expires_at FROM webhook_secrets ORDER BY id').all() as { secret: string; expires_at: string | null }[]);
  assert.equal(live.length, 2);
  assert.ok(live[0]!.expires_at && Date.parse(live[0]!.expires_at) > Date.now() + 23 * 3600_000, 'old secret signs for 24 h more');
  assert.equal(live[1]!.expires_at, null);
});

it('refuses bad input with a usage error and exit code 2', async () => {
  const db = join(dir, 'bad.db');
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
