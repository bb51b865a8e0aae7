// The gateway going away and coming back, and a real 429 from the gateway's rate limiter.
import { expect } from '@open-wc/testing';
import '../../dist/svc-checkout.mjs';
import { cleanup, mount, mountPayment, part, recordEvents, server, waitFor } from './support/helpers.js';

describe('network trouble', () => {
  beforeEach(() => server('svc-clear-log'));
  afterEach(async () => {
    cleanup();
    await server('svc-gateway-start', { gateway: 'main', ifStopped: true }).catch(() => {});
  });

  it('shows "Reconnecting…" while the gateway is unreachable, keeps the session, and recovers', async function () {
    this.timeout(60000);
    const errors = recordEvents(document, ['svc-error', 'svc-session']);
    const { el, session } = await mountPayment({ 'base-url': `${location.origin}/gw/main` });
    await server('svc-gateway-stop');
    await waitFor(() => part(el, 'status').textContent === 'Reconnecting…', { message: '"Reconnecting…"' });
    expect(el.payment.id).to.equal(session.paymentId);
    expect(part(el, 'qr-code')).to.exist; // the customer can still scan and pay meanwhile

    // Paid while the gateway is down: once back, the element sees it.
    await server('svc-pay', { url: session.payment.url });
    await server('svc-gateway-start');
    await waitFor(() => el.status === 'confirmed', { timeout: 45000, message: 'confirmed after the gateway came back' });
    expect(errors.filter((e) => e.type === 'svc-error')).to.deep.equal([]);
    expect(errors.filter((e) => e.type === 'svc-session')).to.have.length(1);
  });

  it('waits as long as a 429 Retry-After says', async function () {
    this.timeout(40000);
    const el = await mount({ 'session-url': '/test/session?gateway=strict&proxy=1' });
    await waitFor(() => el.payment, { message: 'the payment' });
    const id = el.payment.id;
    // The strict gateway allows a burst of 2, then one call per 4 s: the element soon meets a 429.
    let log = [];
    await waitFor(async () => {
      log = (await server('svc-requests')).filter((r) => r.url.includes(`/payments/${id}/verify`));
      return log.filter((r) => r.status === 429).length >= 2 && log.at(-1).status !== null;
    }, { timeout: 30000, message: 'two 429 answers' });
    expect(el.status).to.equal('pending');
    expect(part(el, 'status').textContent).to.equal('Waiting for payment'); // a 429 is not an outage
    for (let i = 0; i < log.length - 1; i++) {
      if (log[i].status !== 429) continue;
      const wait = log[i + 1].at - log[i].at;
      expect(wait).to.be.at.least(Number(log[i].retryAfter) * 1000 - 150, `call ${i + 1} came ${wait} ms after a 429 with Retry-After ${log[i].retryAfter}`);
    }
    expect(log.some((r) => r.status === 429 && Number(r.retryAfter) >= 2)).to.equal(true);
  });
});
