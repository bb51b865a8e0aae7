/**
 * The storage engines: configuration of PostgreSQL, and the claims (leases) that let several
 * instances share the work, on whichever engine the run uses (SQLite by default, PostgreSQL with
 * SVC_TEST_DATABASE=postgres). Two Store objects on one database stand for two instances.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, configFromFlagsAndEnv } from '../../src/gateway/config.js';
import { openStore } from '../../src/gateway/store/index.js';
import type { Store } from '../../src/gateway/store/store.js';
import { TEST_ENGINE, dbRun } from '../helpers/db.js';
import { startBareGateway, type BareGateway } from '../helpers/gateway.js';
import { api } from '../helpers/http.js';

describe('PostgreSQL configuration', () => {
  it('takes postgres:// from --database or DATABASE_URL, and the pool size from DATABASE_POOL_SIZE', () => {
    const url = 'postgres://gw:secret@db.internal:5432/checkout';
    assert.equal(configFromFlagsAndEnv({ database: url }, {}).databaseUrl, url);
    const fromEnv = configFromFlagsAndEnv({}, { DATABASE_URL: 'postgresql://db/x', DATABASE_POOL_SIZE: '25', CHECK_LEASE_MS: '5000' });
    assert.equal(fromEnv.databaseUrl, 'postgresql://db/x');
    assert.equal(fromEnv.databasePoolSize, 25);
    assert.equal(fromEnv.watcher.checkLeaseMs, 5000);
    // A file path still means SQLite.
    const sqlite = configFromFlagsAndEnv({ database: '/var/lib/gw.db' }, { DATABASE_URL: url });
    assert.equal(sqlite.databaseUrl, null);
    assert.equal(sqlite.databasePath, '/var/lib/gw.db');
    for (const bad of ['0', '-1', 'ten', '1.5']) {
      assert.throws(() => configFromFlagsAndEnv({}, { DATABASE_POOL_SIZE: bad }), ConfigError);
    }
  });

  it('says clearly when PostgreSQL cannot be reached', async () => {
    await assert.rejects(
      openStore({ databasePath: '', databaseUrl: 'postgres://nobody:pw@127.0.0.1:9/none', databaseRetryMs: 300, log: () => {} }).then(async (s) => s.close()),
      (e: Error) => /^PostgreSQL at 127\.0\.0\.1:9\/none is not reachable: .*ECONNREFUSED/.test(e.message) && !e.message.includes('pw'),
    );
  });
});

describe(`claims on ${TEST_ENGINE}`, () => {
  let gw: BareGateway;
  let one: Store;
  let two: Store;
  const ids: string[] = [];
  const iso = (ms: number) => new Date(ms).toISOString();

  before(async () => {
    // Background work off: only this test claims. The webhook URL gives every event an outbox row.
    gw = await startBareGateway({ background: false, webhookUrl: 'http://127.0.0.1:9/hook', detection: { enabled: false } });
    for (let i = 0; i < 12; i++) {
      const res = await api(gw.url, '/api/v1/payments', { key: gw.merchant.secretKey, body: { amount: `${i + 1}`, currency: 'SOL' } });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    one = await openStore({ databasePath: gw.dbPath });
    two = await openStore({ databasePath: gw.dbPath });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await gw?.stop();
  });

  it('leases a check to one claimant, and keeps the interval between checks', async () => {
    const id = ids[0]!;
    const now = Date.now();
    assert.equal(await one.claimCheck(id, iso(now), iso(now - 1000), iso(now + 30_000)), true);
    assert.equal(await two.claimCheck(id, iso(now), iso(now), iso(now + 30_000)), false, 'a live lease, even for an urgent check');
    await one.scheduleCheck(id, iso(now + 1000), 1); // the check ended: lease released
    assert.equal(await two.claimCheck(id, iso(now + 10), iso(now + 10 - 1000), iso(now + 30_000)), false, 'checked less than the interval ago');
    assert.equal(await two.claimCheck(id, iso(now + 10), iso(now + 10), iso(now + 30_000)), true, 'an urgent check skips the interval');
    await two.scheduleCheck(id, iso(now + 1000), 2);
    // An expired lease is anyone's.
    assert.equal(await one.claimCheck(id, iso(now + 50), iso(now + 50), iso(now + 60)), true);
    assert.equal(await two.claimCheck(id, iso(now + 61), iso(now + 61), iso(now + 30_000)), true, 'the lease ran out');
    await two.scheduleCheck(id, iso(now + 1000), 3);
  });

  it('hands due checks and due deliveries to concurrent claimants without overlap', async () => {
    const later = Date.now() + 60_000; // everything created above is due by then
    const [a, b] = await Promise.all([
      one.claimDueChecks(iso(later), iso(later), iso(later + 30_000), 7),
      two.claimDueChecks(iso(later), iso(later), iso(later + 30_000), 7),
    ]);
    const claimed = [...a, ...b].map((r) => r.id);
    assert.equal(new Set(claimed).size, claimed.length, 'no payment claimed twice');
    assert.deepEqual(new Set(claimed), new Set(ids), 'every due payment claimed once');
    assert.deepEqual(await one.claimDueChecks(iso(later), iso(later), iso(later + 30_000), 50), [], 'leased rows are not due');

    const [x, y] = await Promise.all([
      one.claimDeliveries(iso(later), iso(later + 30_000), 8),
      two.claimDeliveries(iso(later), iso(later + 30_000), 8),
    ]);
    const deliveries = [...x, ...y].map((d) => d.outbox.id);
    assert.equal(new Set(deliveries).size, deliveries.length, 'no delivery claimed twice');
    assert.equal(deliveries.length, 12, 'one created event each');
    assert.ok([...x, ...y].every((d) => d.webhookUrl === 'http://127.0.0.1:9/hook' && JSON.parse(d.eventBody).type === 'payment.created'));
    assert.deepEqual(await two.claimDeliveries(iso(later), iso(later + 30_000), 50), []);
    assert.equal((await one.claimDeliveries(iso(later + 30_001), iso(later + 60_000), 50)).length, 12, 'expired leases are claimable again');
  });

  it("runs (and so ends) a claimed check even while a verify that found the lease taken is answering", async () => {
    const res = await api(gw.url, '/api/v1/payments', { key: gw.merchant.secretKey, body: { amount: '99', currency: 'SOL' } });
    const id = res.body.id as string;
    const now = Date.now() + 120_000; // due by then
    const claimed = await one.claimDueChecks(iso(now), iso(now), iso(now + 30_000), 100);
    assert.ok(claimed.some((r) => r.id === id), 'the watcher side holds the lease');
    const service = gw.gateway.service;
    const before = service.checksStarted;
    // A verify arrives first: its claim fails (lease taken) and it reads the row; then the watcher's check.
    const verify = service.check(id);
    const watcher = service.check(id, { claimed: true });
    await Promise.all([verify, watcher]);
    assert.equal(service.checksStarted - before, 1, 'the claimed check ran');
    const row = await one.getPayment(id);
    assert.equal(row?.checking_until ?? null, null, 'and its lease ended with it');
  });

  it('shares rate limits through the database on PostgreSQL only', { skip: TEST_ENGINE !== 'postgres' && 'PostgreSQL only' }, async () => {
    const limit = { ratePerSecond: 0.001, burst: 2 };
    const a = one.sharedRateLimiter!('test', limit);
    const b = two.sharedRateLimiter!('test', limit);
    const key = `k-${Date.now()}`;
    assert.equal((await a.take(key)).allowed, true);
    assert.equal((await b.take(key)).allowed, true);
    const refused = await a.take(key);
    assert.equal(refused.allowed, false);
    assert.ok(refused.retryAfterSeconds >= 1);
    assert.equal((await b.take(`${key}-other`)).allowed, true, 'keys are separate');
    // An instance whose own share is used up refuses without asking the database: even with the
    // shared bucket emptied out of band, a knows it has no token left; another instance asks.
    const own = `${key}-own`;
    assert.equal((await a.take(own)).allowed, true);
    assert.equal((await a.take(own)).allowed, true);
    await dbRun(gw.dbPath, 'DELETE FROM rate_limits');
    assert.equal((await a.take(own)).allowed, false, 'refused locally');
    assert.equal((await one.sharedRateLimiter!('test', limit).take(own)).allowed, true, 'a fresh instance asks the database');
  });

  it('keeps rate limits in memory on SQLite', { skip: TEST_ENGINE !== 'sqlite' && 'SQLite only' }, () => {
    assert.equal(one.sharedRateLimiter, undefined);
  });
});
