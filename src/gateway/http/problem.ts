/**
 * RFC 9457 problem details. Every error leaves the API as application/problem+json with a stable
 * snake_case `code` (listed in docs/api.md). Unexpected errors become a bare 500 `internal_error`:
 * never a stack trace, never the message of an internal exception.
 */
import type { ErrorRequestHandler, Response } from 'express';
import { CoreError } from '../../core/errors.js';

export const PROBLEM_TYPE_BASE = 'https://docs.svc-checkout.dev/errors/';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function sendProblem(res: Response, status: number, code: string, detail: string, param?: string): void {
  const requestId = String(res.getHeader('x-request-id') ?? '');
  const body: Record<string, unknown> = {
    type: PROBLEM_TYPE_BASE + code,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
  };
  if (param !== undefined) body.param = param;
  body.requestId = requestId;
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

/** Maps body-parser errors, core validation errors and ApiErrors; everything else is a 500. */
export function problemHandler(log: (line: string) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      sendProblem(res, err.status, err.code, err.detail, err.param);
      return;
    }
    if (err instanceof CoreError) {
      sendProblem(res, 400, err.code, err.message, err.param);
      return;
    }
    const type = (err as { type?: unknown })?.type;
    if (type === 'entity.too.large') return sendProblem(res, 413, 'body_too_large', 'The request body is larger than 16 KiB.');
    if (type === 'entity.parse.failed') return sendProblem(res, 400, 'invalid_json', 'The request body is not valid JSON.');
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return sendProblem(res, 415, 'unsupported_media_type', 'The request body must be UTF-8 JSON.');
    }
    if (type === 'request.aborted') return;
    // Express's router refuses a path whose percent-encoding does not decode (e.g. /payments/%zz).
    if (err instanceof URIError) return sendProblem(res, 400, 'path_invalid', 'The URL path is not valid percent-encoded UTF-8.');
    // Any other client error raised by Express or its body parser (they set a 4xx status and mark it safe to expose).
    const status = (err as { status?: unknown; expose?: unknown })?.status;
    if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: unknown }).expose === true) {
      return sendProblem(res, status, 'request_invalid', 'The request could not be read.');
    }
    if (databaseUnavailable(err)) {
      log(`[gateway] ${res.getHeader('x-request-id')} ${req.method} ${req.path}: database unavailable: ${(err as Error)?.message ?? String(err)}`);
      res.setHeader('Retry-After', '1');
      return sendProblem(res, 503, 'database_unavailable', 'The database cannot be reached right now; nothing was changed. Retry shortly.');
    }
    log(`[gateway] ${res.getHeader('x-request-id')} ${req.method} ${req.path} internal error: ${(err as Error)?.stack ?? String(err)}`);
    sendProblem(res, 500, 'internal_error', 'Something went wrong on our side. Retry later; quote the request id if it persists.');
  };
}

// PostgreSQL connection failures and shutdowns (SQLSTATE class 08, 57P01-57P03), network errors to it,
// node-postgres pool timeouts, and SQLite's busy timeout: the request changed nothing and may be retried.
const DB_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', 'SQLITE_BUSY']);
const DB_DOWN_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|Client has encountered a connection error/;

export function databaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && (DB_DOWN_CODES.has(code) || code.startsWith('08'))) return true;
  return DB_DOWN_MESSAGE.test(String((err as Error)?.message ?? ''));
}
