// Development-only routes: let a newcomer without a wallet app pay an open payment from the
// localnet's funded throwaway payer. Never mounted in production (NODE_ENV=production).
import express from 'express';
import { payUrl } from '../dist/localnet/index.js';

export function mountDevRoutes(app, { client, orders, rpcUrl }) {
  app.get('/api/dev/open-orders', async (_req, res) => {
    res.json(orders.list().filter((o) => o.status !== 'paid').slice(0, 20));
  });

  app.post('/api/dev/pay', express.json({ limit: '1kb' }), async (req, res) => {
    const orderId = String(req.body?.orderId ?? '');
    const page = await client.payments.list({ orderId, status: 'pending', limit: 1 });
    const payment = page.data[0];
    if (!payment) return res.status(404).json({ error: `No pending payment for order ${orderId}: open its checkout page first.` });
    try {
      const { signature } = await payUrl(payment.url, { rpcUrl });
      res.json({ paymentId: payment.id, signature });
    } catch (err) {
      res.status(502).json({ error: `The localnet refused the payment: ${err.message}` });
    }
  });
}
