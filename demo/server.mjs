#!/usr/bin/env node
// The demo shop's backend: a plain Express app that holds the secret key and uses the svc-checkout
// server SDK exactly as a merchant would. Orders are marked paid only by a verified webhook.
//
//   SVC_SECRET_KEY=svc_test_... SVC_WEBHOOK_SECRET=whsec_... GATEWAY_URL=http://127.0.0.1:4000 node demo/server.mjs
import express from 'express';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ConflictError, SvcClient } from 'svc-checkout/server';
import { createSessionHandler, webhookHandler } from 'svc-checkout/server/express';
import { CURRENCY, PRODUCTS, findProduct } from './catalog.mjs';
import { fromCents, toCents } from './money.mjs';
import { OrderBook } from './orders.mjs';
import { mountDevRoutes } from './dev-routes.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

export function createShop({ secretKey, webhookSecret, gatewayUrl, dataDir, rpcUrl = null, devTools = false }) {
  const client = new SvcClient({ apiKey: secretKey, baseUrl: gatewayUrl });
  const orders = new OrderBook(join(dataDir, 'orders.json'));
  const app = express();
  app.disable('x-powered-by');

  // The checkout works under a strict policy: the element needs no inline script or style.
  app.use((_req, res, next) => {
    res.set('Content-Security-Policy', `default-src 'self'; connect-src 'self' ${new URL(gatewayUrl).origin}; img-src 'self' data: https:`);
    res.set('X-Content-Type-Options', 'nosniff');
    next();
  });

  app.get('/svc-checkout.js', (_req, res) => res.sendFile(join(here, '..', 'dist', 'svc-checkout.js')));
  app.use(express.static(join(here, 'public')));

  app.get('/api/products', (_req, res) => res.json({ currency: CURRENCY, products: PRODUCTS }));

  // The browser sends product ids and quantities; the total is computed here from our own prices.
  app.post('/api/orders', express.json({ limit: '4kb' }), (req, res) => {
    const lines = Array.isArray(req.body?.items) ? req.body.items : [];
    const items = [];
    for (const line of lines) {
      const product = findProduct(String(line?.id));
      const quantity = Number(line?.quantity);
      if (!product || !Number.isInteger(quantity) || quantity < 1 || quantity > 99) {
        return res.status(400).json({ error: 'Each item needs a known product id and a quantity from 1 to 99.' });
      }
      items.push({ id: product.id, name: product.name, price: product.price, quantity });
    }
    if (items.length === 0) return res.status(400).json({ error: 'The cart is empty.' });
    const total = fromCents(items.reduce((sum, item) => sum + toCents(item.price) * item.quantity, 0));
    res.status(201).json(orders.create({ items, total, currency: CURRENCY }));
  });

  app.get('/api/orders/:id', (req, res) => {
    const order = orders.get(req.params.id);
    if (!order) return res.status(404).json({ error: 'No such order.' });
    res.json(order);
  });

  // Behind <svc-checkout session-url="/checkout/session">: amount and currency come from the order.
  app.post(
    '/checkout/session',
    express.json({ limit: '4kb' }),
    createSessionHandler({
      client,
      async createPayment(req) {
        const order = orders.get(String(req.body?.orderId ?? ''));
        if (!order) throw Object.assign(new Error('No such order.'), { status: 404 });
        if (order.status === 'paid') throw Object.assign(new Error('This order is already paid.'), { status: 409 });
        await cancelPendingPayments(client, order.id);
        return { amount: order.total, currency: order.currency, orderId: order.id, label: 'svc-checkout demo shop', message: `Order ${order.id}` };
      },
    }),
  );

  app.post(
    '/webhooks/svc',
    webhookHandler({
      secret: webhookSecret,
      async onEvent(event) {
        const payment = event.data.payment;
        const order = payment.orderId ? orders.get(payment.orderId) : null;
        if (!order) return;
        if (event.type === 'payment.confirmed') {
          // Trust the signed event, and still check it pays this order in full in the right currency.
          if (payment.currency !== order.currency || toCents(normaliseCents(payment.amount)) !== toCents(order.total)) {
            console.warn(`order ${order.id}: confirmed payment ${payment.id} does not match the order total`);
            return;
          }
          if (order.status === 'paid' && order.paymentId !== payment.id) {
            // Paid twice (two checkout tabs, or a late transfer to an older payment): keep the first, flag the
            // second for a refund. Never lose track of money received.
            const extra = order.extraPayments ?? [];
            if (!extra.some((p) => p.paymentId === payment.id)) {
              console.warn(`order ${order.id}: also paid by ${payment.id}; refund it`);
              orders.update(order.id, { extraPayments: [...extra, { paymentId: payment.id, signature: payment.signature, amount: payment.amountReceived }] });
            }
            return;
          }
          orders.update(order.id, { status: 'paid', paymentId: payment.id, signature: payment.signature, paidAt: payment.confirmedAt });
        } else if (order.status !== 'paid') {
          orders.update(order.id, { paymentId: payment.id, lastEvent: event.type });
        }
      },
    }),
  );

  if (devTools && rpcUrl) mountDevRoutes(app, { client, orders, rpcUrl });
  return app;
}

/**
 * A reloaded checkout page asks for a new session: cancel the order's older pending payments so
 * one order has one live payment. A customer who still pays a cancelled one is not lost: the gateway
 * confirms it late (paidLate) and the webhook handler records it as an extra payment to refund.
 */
async function cancelPendingPayments(client, orderId) {
  for await (const payment of client.payments.list({ orderId, status: 'pending' })) {
    try {
      await client.payments.cancel(payment.id);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err; // confirmed or expired meanwhile: nothing to cancel
    }
  }
}

/** The gateway writes amounts in their shortest form ("12.5"); the shop keeps cents ("12.50"). */
function normaliseCents(amount) {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const env = process.env;
  for (const name of ['SVC_SECRET_KEY', 'SVC_WEBHOOK_SECRET']) {
    if (!env[name]) {
      console.error(`demo: set ${name} (npm start does it for you)`);
      process.exit(1);
    }
  }
  const port = Number(env.PORT ?? 3000);
  const app = createShop({
    secretKey: env.SVC_SECRET_KEY,
    webhookSecret: env.SVC_WEBHOOK_SECRET,
    gatewayUrl: env.GATEWAY_URL ?? 'http://127.0.0.1:4000',
    dataDir: env.DEMO_DATA_DIR ?? 'data/demo',
    rpcUrl: env.SOLANA_RPC_URL ?? null,
    devTools: env.NODE_ENV !== 'production',
  });
  const server = app.listen(port, '127.0.0.1', () => console.error(`demo shop on http://127.0.0.1:${port}`));
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
