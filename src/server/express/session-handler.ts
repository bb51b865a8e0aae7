/**
 * The POST endpoint behind the element's `session-url`. The merchant's `createPayment(req)` decides
 * amount, currency and orderId from its own records (cart, order table): nothing the browser sends
 * is trusted as a price. The answer is the CheckoutSession the element expects, whose `payment` is
 * the public view fetched from the gateway with the payment token, so metadata and orderId never
 * reach the browser and the gateway alone decides what is public.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CheckoutSession, CreatePaymentParams } from '../../core/payment.js';
import type { SvcClient } from '../client.js';
import { ApiError, ConnectionError, InvalidRequestError, RateLimitError } from '../errors.js';
import { sendJson, sendProblem } from './problem.js';
import { alreadyRead, BodyTooLarge, readRawBody } from './raw-body.js';

export interface SessionHandlerOptions<Req extends IncomingMessage = IncomingMessage> {
  client: SvcClient;
  /**
   * Returns the payment to create for this request, from the merchant's own records. `req.body`
   * holds the parsed JSON the browser sent (e.g. a cart id), if any. Throw an error with a 4xx
   * `status` (or `statusCode`) to refuse with that status and the error's message.
   */
  createPayment(req: Req): CreatePaymentParams | Promise<CreatePaymentParams>;
  /** Origins allowed to ask for a session, e.g. ['https://shop.example']; others get 403. */
  allowedOrigins?: readonly string[];
  /** Sees unexpected errors (default: console.error). The browser only gets a generic 500. */
  onError?(error: unknown, req: Req): void;
}

export type NodeHandler<Req extends IncomingMessage = IncomingMessage> = (req: Req, res: ServerResponse) => Promise<void>;

const MAX_BODY = 16 * 1024;

function normalizeOrigins(origins: readonly string[] | undefined): Set<string> | undefined {
  if (origins === undefined) return undefined;
  return new Set(
    origins.map((origin) => {
      const url = new URL(origin); // throws on a typo at start-up, not at the first checkout
      return url.origin;
    }),
  );
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** Parses a JSON body into req.body unless a body parser already did. */
async function ensureBody(req: IncomingMessage & { body?: unknown }): Promise<void> {
  // A parser already ran; or something set a real body. (Express 4's parsers leave {} on requests they skip.)
  if (alreadyRead(req) || (req.body !== undefined && !isEmptyObject(req.body))) return;
  const raw = await readRawBody(req, MAX_BODY);
  if (raw.length === 0) return;
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/(.+\+)?json\b/i.test(type)) return;
  req.body = JSON.parse(raw.toString('utf8'));
}

function clientStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown; statusCode?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

export function createSessionHandler<Req extends IncomingMessage = IncomingMessage>(
  options: SessionHandlerOptions<Req>,
): NodeHandler<Req> {
  const { client, createPayment } = options;
  if (client == null || typeof createPayment !== 'function') {
    throw new TypeError('createSessionHandler({ client, createPayment }) needs an SvcClient and a createPayment function');
  }
  const allowed = normalizeOrigins(options.allowedOrigins);
  const onError = options.onError ?? ((error: unknown) => console.error('[svc-checkout] session handler:', error));

  return async (req, res) => {
    if (req.method !== 'POST') {
      return sendProblem(res, 405, 'method_not_allowed', 'Use POST to create a checkout session.', { headers: { allow: 'POST' } });
    }
    if (allowed) {
      const origin = req.headers.origin;
      if (typeof origin !== 'string' || !allowed.has(origin)) {
        return sendProblem(res, 403, 'origin_not_allowed', 'This origin may not create checkout sessions.');
      }
    }

    let params: CreatePaymentParams;
    try {
      await ensureBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendProblem(res, 413, 'body_too_large', `The request body is larger than ${MAX_BODY} bytes.`);
      if (error instanceof SyntaxError) return sendProblem(res, 400, 'invalid_json', 'The request body is not valid JSON.');
      onError(error, req);
      return sendProblem(res, 400, 'body_unreadable', 'The request body could not be read.');
    }
    try {
      params = await createPayment(req);
    } catch (error) {
      const status = clientStatus(error);
      if (status !== undefined) {
        const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'session_refused';
        return sendProblem(res, status, code, (error as Error).message || 'The checkout session was refused.');
      }
      onError(error, req);
      return sendProblem(res, 500, 'session_failed', 'The checkout session could not be created.');
    }

    try {
      const created = await client.payments.create(params);
      const payment = await client.payments.retrievePublic(created.id, created.paymentToken);
      const session: CheckoutSession = {
        paymentId: created.id,
        paymentToken: created.paymentToken,
        baseUrl: client.baseUrl,
        payment,
      };
      sendJson(res, 201, session);
    } catch (error) {
      sendGatewayError(res, error, () => onError(error, req));
    }
  };
}

/** Gateway trouble → 502/503; a refused payment → 400 with the gateway's reason; our own misconfiguration → 500. */
function sendGatewayError(res: ServerResponse, error: unknown, report: () => void): void {
  if (error instanceof ConnectionError || (error instanceof ApiError && (error.status ?? 500) >= 500)) {
    report();
    return sendProblem(res, 502, 'gateway_unavailable', 'The payment gateway could not be reached. Try again shortly.');
  }
  if (error instanceof RateLimitError) {
    const headers: Record<string, string> = error.retryAfter !== undefined ? { 'retry-after': String(error.retryAfter) } : {};
    return sendProblem(res, 503, 'gateway_busy', 'The payment gateway is busy. Try again shortly.', { headers });
  }
  if (error instanceof InvalidRequestError) {
    // The merchant's params were refused (amount, currency...): the gateway's reason helps, and holds no secret.
    return sendProblem(res, 400, error.code, error.problem?.detail ?? error.message, error.param ? { param: error.param } : {});
  }
  // Authentication, permission, not found, conflicts, or not an SvcError at all: fix on the merchant's side.
  report();
  sendProblem(res, 500, 'session_failed', 'The checkout session could not be created.');
}
