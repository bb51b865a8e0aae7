/**
 * Receives the gateway's webhooks: reads the raw body itself (so no express.raw is needed, and an
 * express.json() mounted earlier is detected rather than silently breaking signatures), verifies,
 * drops deliveries already processed, runs the merchant's onEvent, and answers 2xx only once
 * onEvent has succeeded: an error means 500, so the gateway delivers again later.
 */
import type { IncomingMessage } from 'node:http';
import type { PaymentEvent } from '../../core/payment.js';
import { WEBHOOK_ERROR_CODES, WebhookVerificationError } from '../errors.js';
import type { WebhookSecret } from '../webhooks/signature.js';
import { verifyWebhook } from '../webhooks/verify.js';
import { sendJson, sendProblem } from './problem.js';
import { alreadyRead, BodyTooLarge, readRawBody } from './raw-body.js';
import { MemorySeenStore, type SeenStore } from './seen-store.js';
import type { NodeHandler } from './session-handler.js';

export interface WebhookContext<Req extends IncomingMessage = IncomingMessage> {
  /** The webhook-id: the same on every delivery of one event. */
  id: string;
  req: Req;
}

export interface WebhookHandlerOptions<Req extends IncomingMessage = IncomingMessage> {
  /** The endpoint's `whsec_` secret; several during a rotation. */
  secret: WebhookSecret;
  /** Handles one verified event. Throw (or reject) to have it delivered again later. */
  onEvent(event: PaymentEvent, context: WebhookContext<Req>): void | Promise<void>;
  /** Where processed webhook-ids are remembered (default: in memory, 10 000 ids for 24 h). */
  seen?: SeenStore;
  /** Seconds of clock difference accepted (default 300). */
  tolerance?: number;
  /** Largest body accepted, in bytes (default 256 KiB). */
  maxBodySize?: number;
  /** Sees onEvent failures and misconfiguration (default: console.error). */
  onError?(error: unknown, req: Req): void;
}

export function webhookHandler<Req extends IncomingMessage = IncomingMessage>(options: WebhookHandlerOptions<Req>): NodeHandler<Req> {
  const { secret, onEvent } = options;
  if (secret === undefined || typeof onEvent !== 'function') {
    throw new TypeError('webhookHandler({ secret, onEvent }) needs the webhook secret and an onEvent function');
  }
  const seen = options.seen ?? new MemorySeenStore();
  const maxBodySize = options.maxBodySize ?? 256 * 1024;
  const onError = options.onError ?? ((error: unknown) => console.error('[svc-checkout] webhook handler:', error));
  // Deliveries of one id being processed right now in this process: a concurrent duplicate waits its turn.
  const inFlight = new Set<string>();

  return async (req, res) => {
    if (req.method !== 'POST') {
      return sendProblem(res, 405, 'method_not_allowed', 'Webhooks are delivered with POST.', { headers: { allow: 'POST' } });
    }
    let raw: string | Uint8Array;
    const body = (req as { body?: unknown }).body;
    if (typeof body === 'string' || body instanceof Uint8Array) {
      raw = body; // express.raw()/express.text() ran before us: fine, those are the exact bytes
      // (Express 4's body parsers set req.body = {} even when they skip a request: only a consumed stream counts.)
    } else if (alreadyRead(req)) {
      // express.json() (or similar) ran first: the exact bytes are gone. A 500 makes the gateway retry once fixed.
      const error = new WebhookVerificationError(
        WEBHOOK_ERROR_CODES.bodyParsed,
        "The webhook body was already parsed by another middleware. Mount webhookHandler before express.json(), or use express.raw({ type: 'application/json' }) on this route.",
      );
      onError(error, req);
      return sendProblem(res, 500, error.code, error.message);
    } else {
      try {
        raw = await readRawBody(req, maxBodySize);
      } catch (error) {
        if (error instanceof BodyTooLarge) return sendProblem(res, 413, 'body_too_large', error.message);
        return sendProblem(res, 400, 'body_unreadable', 'The request body could not be read.');
      }
    }

    let event: PaymentEvent;
    try {
      event = verifyWebhook(raw, req.headers, secret, { tolerance: options.tolerance });
    } catch (error) {
      if (error instanceof WebhookVerificationError) return sendProblem(res, 400, error.code, error.message);
      onError(error, req);
      return sendProblem(res, 500, 'webhook_handler_failed', 'The webhook could not be verified.');
    }
    const id = String(req.headers['webhook-id']);

    if (inFlight.has(id)) {
      return sendProblem(res, 409, 'webhook_in_progress', 'This webhook is being processed; deliver it again later.');
    }
    inFlight.add(id);
    try {
      if (await seen.has(id)) return sendJson(res, 200, { received: true, duplicate: true });
      await onEvent(event, { id, req });
      await seen.add(id);
      sendJson(res, 200, { received: true });
    } catch (error) {
      onError(error, req);
      sendProblem(res, 500, 'webhook_handler_failed', 'The webhook could not be processed; it will be delivered again.');
    } finally {
      inFlight.delete(id);
    }
  };
}
