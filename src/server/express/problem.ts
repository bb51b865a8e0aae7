/** problem+json answers from the merchant-side handlers, shaped like the gateway's (DESIGN §4). */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Problem } from '../../core/payment.js';

const TYPE_BASE = 'https://docs.svc-checkout.dev/errors/';
const TITLES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function sendProblem(
  res: ServerResponse,
  status: number,
  code: string,
  detail: string,
  extra: { param?: string; headers?: Record<string, string> } = {},
): void {
  if (res.headersSent) return;
  const requestId = `req_${randomBytes(12).toString('hex')}`;
  const body: Problem = { type: TYPE_BASE + code, title: TITLES[status] ?? 'Error', status, detail, code, requestId };
  if (extra.param !== undefined) body.param = extra.param;
  res.writeHead(status, {
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
    'x-request-id': requestId,
    ...extra.headers,
  });
  res.end(JSON.stringify(body));
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
