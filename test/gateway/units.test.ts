/** Small pure parts of the gateway: ids, keys, retry timing, rate limiting, configuration. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isId, sortableId } from '../../src/gateway/ids.js';
import { generatePaymentToken, generatePublishableKey, generateSecretKey, generateWebhookSecret, hashCredential, hashesEqual, keyPrefix, parseKeyShape } from '../../src/gateway/keys.js';
import { retryDelay } from '../../src/gateway/webhooks/schedule.js';
import { TokenBucketLimiter } from '../../src/gateway/http/rate-limit.js';
import { ConfigError, configFromFlagsAndEnv, parseCurrencies } from '../../src/gateway/config.js';

describe('ids', () => {
  it('sort by creation, also within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => sortableId(1_700_000_000_000));
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(sortableId(1_700_000_000_001) > ids.at(-1)!);
    assert.ok(isId('pay', 'pay_' + ids[0]));
    assert.ok(!isId('pay', 'evt_' + ids[0]));
    assert.ok(!isId('pay', 'pay_' + ids[0]!.toLowerCase()));
  });
});

describe('keys', () => {
  it('have the documented shapes and 256 random bits', () => {
    assert.match(generateSecretKey('live'), /^svc_live_[0-9A-Za-z]{43}$/);
    assert.match(generateSecretKey('test'), /^svc_test_[0-9A-Za-z]{43}$/);
    assert.match(generatePublishableKey('live'), /^svc_pk_live_[0-9A-Za-z]{43}$/);
    assert.match(generatePaymentToken(), /^svc_pt_[0-9A-Za-z]{43}$/);
    const secret = generateWebhookSecret();
    assert.match(secret, /^whsec_/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(generateSecretKey('test'), generateSecretKey('test'));
  });

  it('are told apart by shape, hashed, compared, and shown only by prefix', () => {
    const k = generateSecretKey('test');
    assert.deepEqual(parseKeyShape(k), { kind: 'secret', mode: 'test' });
    assert.deepEqual(parseKeyShape(generatePublishableKey('live')), { kind: 'publishable', mode: 'live' });
    assert.equal(parseKeyShape(generatePaymentToken()), null);
    assert.equal(parseKeyShape('svc_test_short'), null);
    assert.ok(hashesEqual(hashCredential(k), hashCredential(k)));
    assert.ok(!hashesEqual(hashCredential(k), hashCredential(k + 'x')));
    assert.equal(keyPrefix(k).length, 'svc_test_'.length + 5);
    assert.ok(k.startsWith(keyPrefix(k).slice(0, -1)) && keyPrefix(k).endsWith('…'));
  });
});

describe('webhook retry timing', () => {
  it('follows the schedule with bounded jitter, then gives up', () => {
    const schedule = [5_000, 300_000];
    assert.equal(retryDelay(schedule, 1, 0.1, () => 0), 4_500);
    assert.equal(retryDelay(schedule, 1, 0.1, () => 1), 5_500);
    assert.equal(retryDelay(schedule, 2, 0, Math.random), 300_000);
    assert.equal(retryDelay(schedule, 3, 0.1), null);
  });
});

describe('token bucket', () => {
  it('allows the burst, refuses with Retry-After, refills over time, per key', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ ratePerSecond: 2, burst: 3 }, () => now);
    assert.deepEqual([1, 2, 3].map(() => limiter.take('a').allowed), [true, true, true]);
    const refused = limiter.take('a');
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterSeconds, 1);
    assert.equal(limiter.take('b').allowed, true, 'keys are independent');
    now += 500; // one token back
    assert.equal(limiter.take('a').allowed, true);
    assert.equal(limiter.take('a').allowed, false);
  });
});

describe('configuration', () => {
  it('takes flags over environment over defaults', () => {
    const c = configFromFlagsAndEnv({ port: '5000' }, { PORT: '6000', SOLANA_RPC_URL: 'http://rpc', COMMITMENT: 'finalized', CURRENCIES: 'USDC=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' });
    assert.equal(c.port, 5000);
    assert.equal(c.rpcUrl, 'http://rpc');
    assert.equal(c.commitment, 'finalized');
    assert.deepEqual(c.currencies, [{ symbol: 'USDC', mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }]);
    const d = configFromFlagsAndEnv({}, {});
    assert.equal(d.port, 4000);
    assert.equal(d.databasePath, './data/gateway.db');
    assert.equal(d.rpcUrl, 'http://127.0.0.1:8899');
    assert.equal(d.commitment, 'confirmed');
    assert.equal(configFromFlagsAndEnv({}, { DATABASE_URL: 'sqlite:/tmp/x.db' }).databasePath, '/tmp/x.db');
    const tuned = configFromFlagsAndEnv({}, { WEBHOOK_RETRY_SCHEDULE_MS: '10,20', RATE_LIMIT_PER_PAYMENT: '5,7' });
    assert.deepEqual(tuned.webhooks.retryScheduleMs, [10, 20]);
    assert.deepEqual(tuned.rateLimits.perPayment, { ratePerSecond: 5, burst: 7 });
  });

  it('refuses bad values clearly', () => {
    assert.throws(() => parseCurrencies('usdc=abc'), ConfigError);
    assert.throws(() => parseCurrencies('SOL=abc'), ConfigError);
    assert.throws(() => parseCurrencies('USDC'), ConfigError);
    assert.throws(() => configFromFlagsAndEnv({ port: '70000' }, {}), ConfigError);
    assert.throws(() => configFromFlagsAndEnv({ commitment: 'processed' }, {}), ConfigError);
    assert.throws(() => configFromFlagsAndEnv({}, { WEBHOOK_LEASE_MS: '-1' }), ConfigError);
  });
});
