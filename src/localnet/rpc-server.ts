/**
 * JSON-RPC 2.0 over HTTP, as a Solana RPC node serves it: POST a request object or a
 * batch array to `/`; errors come back in the JSON-RPC envelope with HTTP 200; GET /health
 * answers "ok". Bound to 127.0.0.1 by default.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalChain } from './chain.js';
import { dispatch } from './methods.js';
import { RPC_CODES, RpcError } from './rpc-error.js';
import { stringifyRpc } from './rpc-json.js';

/** Real nodes cap request bodies (about 50 KiB); batches of transactions fit well within 1 MiB. */
const MAX_BODY_BYTES = 1024 * 1024;

type Id = string | number | null;

function envelope(id: Id, body: { result: unknown } | { error: unknown }) {
  return { jsonrpc: '2.0', ...body, id };
}

function handleOne(chain: LocalChain, request: unknown, log?: (line: string) => void): unknown {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return envelope(null, { error: { code: RPC_CODES.invalidRequest, message: 'Invalid request' } });
  }
  const { jsonrpc, method, params, id = null } = request as { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: Id };
  if (jsonrpc !== '2.0' || typeof method !== 'string') {
    return envelope(typeof id === 'string' || typeof id === 'number' ? id : null, {
      error: { code: RPC_CODES.invalidRequest, message: 'Invalid request' },
    });
  }
  // A notification (no "id") is carried out but answered with nothing, as JSON-RPC 2.0 says.
  const notification = !('id' in (request as object));
  try {
    const result = dispatch(chain, method, params);
    return notification ? undefined : envelope(id, { result });
  } catch (error) {
    if (notification) return undefined;
    if (error instanceof RpcError) return envelope(id, { error: error.toJSON() });
    log?.(`internal error in ${method}: ${(error as Error).stack ?? String(error)}`);
    return envelope(id, { error: { code: RPC_CODES.internalError, message: 'Internal error' } });
  }
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface RpcServerOptions {
  host: string;
  port: number;
  log?: (line: string) => void;
}

export async function startRpcServer(chain: LocalChain, options: RpcServerOptions): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === '/health') return send(res, 200, 'ok', 'text/plain');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'POST' });
        return res.end();
      }
      if (req.method !== 'POST') return send(res, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain');
      res.setHeader('access-control-allow-origin', '*');
      const text = await readBody(req);
      if (text === null) return send(res, 413, 'Payload Too Large', 'text/plain');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return send(res, 200, stringifyRpc(envelope(null, { error: { code: RPC_CODES.parseError, message: 'Parse error' } })));
      }
      if (Array.isArray(parsed)) {
        if (parsed.length === 0) return send(res, 200, stringifyRpc(envelope(null, { error: { code: RPC_CODES.invalidRequest, message: 'Invalid request' } })));
        const answers = parsed.map((r) => handleOne(chain, r, options.log)).filter((a) => a !== undefined);
        return answers.length ? send(res, 200, stringifyRpc(answers)) : send(res, 200, '');
      }
      const answer = handleOne(chain, parsed, options.log);
      return answer === undefined ? send(res, 200, '') : send(res, 200, stringifyRpc(answer));
    })().catch((error: unknown) => {
      options.log?.(`request failed: ${String(error)}`);
      if (!res.headersSent) send(res, 500, 'Internal Server Error', 'text/plain');
    });
  });
  // Clients (web3.js, undici) keep connections alive for a few seconds; closing idle ones
  // later than they do avoids the race where a request meets a socket the server just closed.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { server, url: `http://${host}:${port}` };
}
