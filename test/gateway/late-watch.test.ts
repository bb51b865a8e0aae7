// The late watch's back-off: frequent right after expiry, when late transfers come, then rare.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lateCheckDelay } from '../../src/gateway/payments/late-watch.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { api } from '../helpers/http.js';
import { dbGet, dbRun } from '../helpers/db.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Walks the schedule from the expiry to the end of a 24 h watch, counting checks. */
function checksOverADay(intervalMs: number): number {
  let checks = 0;
  for (let t = intervalMs; t < DAY; t += lateCheckDelay(t, intervalMs)) checks++;
  return checks;
}

test('checks at the configured interval for the first ten minutes after expiry', () => {
  assert.equal(lateCheckDelay(0, 30_000), 30_000);
  assert.equal(lateCheckDelay(10 * MINUTE - 1, 30_000), 30_000);
  assert.equal(lateCheckDelay(5 * MINUTE, 200), 200, 'tests compress it through the same setting');
});

test('backs off four times until an hour, then twenty times', () => {
  assert.equal(lateCheckDelay(10 * MINUTE, 30_000), 120_000);
  assert.equal(lateCheckDelay(60 * MINUTE - 1, 30_000), 120_000);
  assert.equal(lateCheckDelay(60 * MINUTE, 30_000), 600_000);
  assert.equal(lateCheckDelay(23 * 60 * MINUTE, 30_000), 600_000);
});

test('a day of late watch costs about 180 checks at the default 30 s, not 2,880', () => {
  const checks = checksOverADay(30_000);
  assert.ok(checks >= 175 && checks <= 190, `${checks} checks`);
  assert.ok(checksOverADay(30_000) * 15 < DAY / 30_000, 'at least fifteen times fewer than a flat schedule');
});

describe('the gateway schedules late checks by that back-off', { timeout: 60_000 }, () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack(); // late interval 200 ms (test/helpers/stack.ts)
  });
  after(async () => stack?.stop());

  /**
   * Creates a payment, moves its expiry `agoMs` into the past, and for `watchMs` records each new
   * next_check_at as a delay from the moment it was first seen: the schedules the watcher chose.
   */
  async function lateDelays(agoMs: number, watchMs: number): Promise<number[]> {
    const key = stack.merchant.secretKey;
    const p = (await api(stack.gatewayUrl, '/api/v1/payments', { key, body: { amount: '1', currency: 'SOL' } })).body;
    const past = new Date(Date.now() - agoMs).toISOString();
    await dbRun(stack.dbPath, 'UPDATE payments SET expires_at = ?, next_check_at = ? WHERE id = ?', past, past, p.id);
    const delays: number[] = [];
    let last: string | null = null;
    for (const end = Date.now() + watchMs; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
      const row = await dbGet<{ status: string; next_check_at: string | null }>(stack.dbPath, 'SELECT status, next_check_at FROM payments WHERE id = ?', p.id);
      if (row?.status === 'expired' && row.next_check_at && row.next_check_at !== last) {
        last = row.next_check_at;
        delays.push(Date.parse(row.next_check_at) - Date.now());
      }
    }
    assert.ok(delays.length > 0, 'the payment expired and was scheduled for late checks');
    return delays;
  }

  test('two hours after expiry the watcher waits twenty intervals; a minute after, one', async () => {
    const old = await lateDelays(2 * 60 * MINUTE, 3_000);
    assert.ok(old.some((d) => d > 10 * 200), `delays two hours after expiry: ${old.join(', ')} ms`);
    assert.ok(old.every((d) => d <= 20 * 200 + 100), `never longer than twenty intervals: ${old.join(', ')} ms`);
    const recent = await lateDelays(MINUTE, 2_000);
    assert.ok(recent.length >= 3, `checked often a minute after expiry: ${recent.length} checks`);
    assert.ok(recent.every((d) => d <= 200 + 100), `delays a minute after expiry: ${recent.join(', ')} ms`);
  });
});
