/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies in tests are read loosely */
/** Tiny fetch wrapper for gateway tests: JSON in, status + headers + parsed body out. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiRequest {
  method?: string;
  key?: string;
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function api<T = any>(baseUrl: string, path: string, req: ApiRequest = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.key) headers.authorization = `Bearer ${req.key}`;
  let body: string | undefined = req.rawBody;
  if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method: req.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value or the time runs out (then throws with the last value). */
export async function waitFor<T>(fn: () => Promise<T>, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last as NonNullable<T>;
    await sleep(opts.intervalMs ?? 100);
  }
  throw new Error(`timed out waiting for ${opts.what ?? 'condition'}; last value: ${JSON.stringify(last)}`);
}
