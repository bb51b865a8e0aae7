/**
 * The fetch the gateway's Solana Connection uses: a deadline on every RPC call (a hung node must not
 * hold a payment's check forever) and, when metrics are on, one observation per call: the JSON-RPC
 * method, the latency, and why it failed (timeout, network, non-2xx status, or a JSON-RPC error answer).
 */
import type { RpcErrorReason } from './metrics.js';

export type RpcObserver = (method: string, seconds: number, error?: RpcErrorReason) => void;

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = Parameters<typeof fetch>[1];

/** The JSON-RPC method of a request body; 'batch' for an array, 'unknown' when unreadable. */
export function rpcMethodOf(body: unknown): string {
  if (typeof body !== 'string') return 'unknown';
  const m = /^\s*\{\s*[^]*?"method"\s*:\s*"([A-Za-z0-9_]{1,64})"/.exec(body.slice(0, 512));
  if (m) return m[1]!;
  return body.trimStart().startsWith('[') ? 'batch' : 'unknown';
}

export function rpcFetch(timeoutMs: number, observe?: RpcObserver): (input: FetchInput, init?: FetchInit) => Promise<Response> {
  if (!observe) return (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  return async (input, init) => {
    const method = rpcMethodOf(init?.body);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    let response: Response;
    try {
      response = await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const name = (error as { name?: string })?.name;
      observe(method, seconds(), name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
      throw error;
    }
    if (!response.ok) {
      observe(method, seconds(), 'http_status');
      return response;
    }
    // Read a copy to spot a JSON-RPC error answer (HTTP 200 with {"error": ...}); parse only when it may be one.
    const copy = response.clone();
    void copy.text().then(
      (text) => {
        let error: RpcErrorReason | undefined;
        if (text.includes('"error"')) {
          try {
            const parsed = JSON.parse(text) as unknown;
            const answers = Array.isArray(parsed) ? parsed : [parsed];
            if (answers.some((a) => a && typeof a === 'object' && 'error' in a && (a as { error: unknown }).error)) error = 'rpc_error';
          } catch {
            error = 'rpc_error';
          }
        }
        observe(method, seconds(), error);
      },
      () => observe(method, seconds(), 'network'),
    );
    return response;
  };
}
