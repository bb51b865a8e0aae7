// Small real HTTP servers on 127.0.0.1:0 for the SDK's tests: a scripted target and a flaky proxy.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Running {
  url: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral port and closes every open socket on close(), so tests never hang. */
export async function listen(server: Server): Promise<Running> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export type Script = (req: Recorded, res: ServerResponse, attempt: number) => void | Promise<void>;

/** A server that answers each request with `script` and records what it received. */
export async function scriptedServer(script: Script): Promise<Running & { requests: Recorded[] }> {
  const requests: Recorded[] = [];
  const server = createServer(async (req, res) => {
    const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: await readBody(req) };
    requests.push(recorded);
    await script(recorded, res, requests.length);
  });
  return Object.assign(await listen(server), { requests });
}

export function problem(res: ServerResponse, status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  const requestId = `req_test_${status}`;
  res.writeHead(status, { 'content-type': 'application/problem+json', 'x-request-id': requestId, ...headers });
  res.end(JSON.stringify({ type: 'about:blank', title: code, status, detail: `detail of ${code}`, code, requestId, ...extra }));
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_ok', ...headers });
  res.end(JSON.stringify(body));
}

export type Fault = 'drop' | 'drop-after-forward' | 'stall' | '500' | 'pass';

/**
 * A reverse proxy in front of `target` that spoils requests by plan: `drop` resets the connection
 * before forwarding, `drop-after-forward` forwards (so the target acts) but resets instead of
 * answering (the lost-response case idempotency exists for), `stall` forwards and never answers
 * (the client times out while the target did the work), `500` answers 500 itself.
 * Requests beyond the plan pass through.
 */
export async function flakyProxy(target: string, plan: Fault[]): Promise<Running & { seen: Recorded[] }> {
  const seen: Recorded[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const fault = plan[seen.length - 1] ?? 'pass';
    if (fault === 'drop') return req.socket.destroy();
    if (fault === '500') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return res.end('proxy says no');
    }
    const upstream = httpRequest(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      if (fault === 'drop-after-forward' || fault === 'stall') {
        answer.resume();
        if (fault === 'drop-after-forward') answer.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => req.socket.destroy());
    upstream.end(body);
  });
  return Object.assign(await listen(server), { seen });
}

/** A URL on which nothing listens: a port that was just free. */
export async function deadUrl(): Promise<string> {
  const running = await listen(createServer());
  await running.close();
  return running.url;
}
