/**
 * Every error the SDK throws is an SvcError. API errors are built from the gateway's RFC 9457
 * problem+json answer, so `code`, `param` and `requestId` are the gateway's own, and `problem`
 * holds the whole body. Branch on the class (or `code`), never on the message.
 */
import type { Problem } from '../core/payment.js';

export interface SvcErrorInit {
  code: string;
  status?: number;
  requestId?: string;
  param?: string;
  problem?: Problem;
  headers?: Headers;
  cause?: unknown;
}

export class SvcError extends Error {
  override name = 'SvcError';
  /** Stable snake_case code: the gateway's `code`, or the SDK's own (`connection_failed`, `timeout`, `webhook_*`...). */
  readonly code: string;
  /** HTTP status of the answer; undefined when there was no answer. */
  readonly status: number | undefined;
  /** The gateway's `x-request-id`: quote it when asking for support. */
  readonly requestId: string | undefined;
  /** The request field at fault, when the gateway names one. */
  readonly param: string | undefined;
  /** The problem+json body as the gateway sent it. */
  readonly problem: Problem | undefined;
  /** The response headers, when there was a response. */
  readonly headers: Headers | undefined;

  constructor(message: string, init: SvcErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.param = init.param;
    this.problem = init.problem;
    this.headers = init.headers;
  }
}

/** 401: no key, an unknown key or a revoked one. */
export class AuthenticationError extends SvcError {
  override name = 'AuthenticationError';
}
/** 403: the key is valid but of the wrong kind (a publishable key on a secret-key route). */
export class PermissionError extends SvcError {
  override name = 'PermissionError';
}
/** 400, 413, 415, 422: the request is wrong; `param` names the field when there is one. */
export class InvalidRequestError extends SvcError {
  override name = 'InvalidRequestError';
}
/** 404: unknown id, or another merchant's, or another mode's (test vs live). */
export class NotFoundError extends SvcError {
  override name = 'NotFoundError';
}
/** 409: the payment's state does not allow it (e.g. cancelling a confirmed payment). */
export class ConflictError extends SvcError {
  override name = 'ConflictError';
}
/** 409 about an Idempotency-Key: reused with another body, or still in flight. */
export class IdempotencyError extends ConflictError {
  override name = 'IdempotencyError';
}
/** 429: slow down; `retryAfter` is in seconds when the gateway said so. */
export class RateLimitError extends SvcError {
  override name = 'RateLimitError';
  readonly retryAfter: number | undefined;
  constructor(message: string, init: SvcErrorInit & { retryAfter?: number }) {
    super(message, init);
    this.retryAfter = init.retryAfter;
  }
}
/** 5xx and any other unexpected answer (including one that is not valid JSON). */
export class ApiError extends SvcError {
  override name = 'ApiError';
}
/** No answer: the connection failed, or the request timed out (`code: 'timeout'`) or was aborted. */
export class ConnectionError extends SvcError {
  override name = 'ConnectionError';
}

export const WEBHOOK_ERROR_CODES = {
  missingHeaders: 'webhook_missing_headers',
  invalidHeaders: 'webhook_invalid_headers',
  badSignature: 'webhook_bad_signature',
  timestampTooOld: 'webhook_timestamp_too_old',
  timestampInFuture: 'webhook_timestamp_in_future',
  bodyParsed: 'webhook_body_parsed',
  invalidPayload: 'webhook_invalid_payload',
} as const;
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[keyof typeof WEBHOOK_ERROR_CODES];

/** A webhook that must not be trusted; `code` says why. */
export class WebhookVerificationError extends SvcError {
  override name = 'WebhookVerificationError';
  declare readonly code: WebhookErrorCode;
  constructor(code: WebhookErrorCode, message: string) {
    super(message, { code });
  }
}

/** Parses `Retry-After` (seconds or an HTTP date) into seconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as Problem).code === 'string';
}

/** Builds the right error class from a non-2xx answer and its (possibly non-JSON) body. */
export function errorFromResponse(status: number, headers: Headers, body: unknown): SvcError {
  const problem = isProblem(body) ? body : undefined;
  const requestId = headers.get('x-request-id') ?? problem?.requestId ?? undefined;
  const code = problem?.code ?? `http_${status}`;
  const init: SvcErrorInit = { code, status, requestId, param: problem?.param, problem, headers };
  const detail = problem?.detail || problem?.title || `The gateway answered ${status}`;
  const message = requestId ? `${detail} (request ${requestId})` : detail;
  switch (status) {
    case 400:
    case 413:
    case 415:
    case 422:
      return new InvalidRequestError(message, init);
    case 401:
      return new AuthenticationError(message, init);
    case 403:
      return new PermissionError(message, init);
    case 404:
      return new NotFoundError(message, init);
    case 409:
      return code.includes('idempotency') ? new IdempotencyError(message, init) : new ConflictError(message, init);
    case 429:
      return new RateLimitError(message, { ...init, retryAfter: parseRetryAfter(headers.get('retry-after')) });
    default:
      return new ApiError(message, init);
  }
}
