/**
 * svc-checkout/server/express: request handlers for a merchant's backend. They use only Node's
 * http types, so they mount in Express 4 or 5 (and Connect, or plain node:http) without
 * this package importing Express.
 *   app.post('/checkout/session', express.json(), createSessionHandler({ client, createPayment }));
 *   app.post('/webhooks/svc', webhookHandler({ secret, onEvent }));
 */
export { createSessionHandler, type SessionHandlerOptions, type NodeHandler } from './session-handler.js';
export { webhookHandler, type WebhookHandlerOptions, type WebhookContext } from './webhook-handler.js';
export { MemorySeenStore, type SeenStore, type MemorySeenStoreOptions } from './seen-store.js';
