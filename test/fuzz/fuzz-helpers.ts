/**
 * Shared by the fuzz tests: seeded, bounded fast-check settings and a raw HTTP client that sends
 * exactly what it is given (any method token, any header, any body, any content type).
 */
import { request, Agent } from 'node:http';
import assert from 'node:assert/strict';
import { schemaErrors } from '../helpers/openapi.js';

/** Override with FUZZ_SEED to reproduce a failure (fast-check prints the seed and path that failed). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261121);
/** Scale the number of runs (FUZZ_SCALE=10 for a long local session). */
export const FUZZ_SCALE = Number(process.env.FUZZ_SCALE ?? 1);

export function fuzzParams(runs: number, timeLimitMs: number) {
  return {
    seed: FUZZ_SEED,
    numRuns: Math.max(1, Math.round(runs * FUZZ_SCALE)),
    // Bounded in time as well as in count: on a loaded CI machine the run stops early rather than late.
    interruptAfterTimeLimit: timeLimitMs * FUZZ_SCALE,
    markInterruptAsFailure: false,
    endOnFailure: true,
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export const agent = new Agent({ keepAlive: true, maxSockets: 16 });

type WireRequest = { method: string; path: string; headers: Record<string, string>; body?: string | Buffer };

/**
 * Sends on a kept-alive connection; when the server had just closed that connection (it does after
 * answering a request that was not valid HTTP), the request is sent once more on a fresh one.
 */
export async function send(base: string, req: WireRequest): Promise<RawResponse> {
  try {
    return await sendOnce(base, req, agent);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ECONNRESET' && (error as Error).message !== 'socket hang up') throw error;
    return sendOnce(base, req, false);
  }
}

function sendOnce(base: string, req: WireRequest, via: Agent | false): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers: req.headers, agent: via },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.setTimeout(15_000, () => r.destroy(new Error(`no answer within 15 s to ${req.method} ${req.path}`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Any 4xx/5xx must be a documented problem: problem+json, the Problem schema, status and request id consistent. */
export function assertProblemShape(res: RawResponse, what: string, headBody = true): void {
  const type = String(res.headers['content-type'] ?? '');
  assert.match(type, /^application\/problem\+json/, `${what}: content-type ${type}\n${res.text.slice(0, 300)}`);
  if (!headBody) return;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    assert.fail(`${what}: problem body is not JSON: ${res.text.slice(0, 300)}`);
  }
  const errors = schemaErrors('Problem', body);
  assert.equal(errors, null, `${what}: ${errors}\n${res.text.slice(0, 300)}`);
  assert.equal(body.status, res.status, `${what}: status field`);
  assert.equal(body.requestId, res.headers['x-request-id'], `${what}: requestId equals x-request-id`);
  assert.ok(!/\bat \S+ \(|node_modules|\.ts:\d+/.test(res.text), `${what}: no stack trace or paths: ${res.text.slice(0, 300)}`);
}
