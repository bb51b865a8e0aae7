// The payment's life as the element follows it, against the real gateway and localnet.
import { expect } from '@open-wc/testing';
import '../../dist/svc-checkout.mjs';
import { cleanup, mount, mountPayment, part, recordEvents, server, waitFor } from './support/helpers.js';

const verifyCalls = async (paymentId) =>
  (await server('svc-requests')).filter((r) => r.url.includes(`/payments/${paymentId}/verify`)).length;

describe('following a payment', () => {
  beforeEach(() => server('svc-clear-log'));
  afterEach(cleanup);

  it('turns confirmed when the payment is made on the localnet, and fires svc-confirmed once', async function () {
    this.timeout(60000);
    const events = recordEvents(document, ['svc-status', 'svc-confirmed']);
    const { el, session } = await mountPayment({}, { amount: '0.75' });
    await server('svc-pay', { url: session.payment.url });
    await waitFor(() => el.status === 'confirmed', { timeout: 40000, message: 'confirmed' });
    await el.updateComplete;
    expect(part(el, 'final').classList.contains('ok')).to.equal(true);
    expect(part(el, 'status').textContent).to.equal('Payment confirmed');
    expect(part(el, 'qr-code')).to.equal(null);
    // Re-renders and more answers must not fire it again.
    el.requestUpdate();
    await new Promise((r) => setTimeout(r, 1500));
    const confirmed = events.filter((e) => e.type === 'svc-confirmed');
    expect(confirmed).to.have.length(1);
    expect(confirmed[0].detail.payment.signature).to.be.a('string');
    expect(events.filter((e) => e.type === 'svc-status').map((e) => e.detail.status).at(-1)).to.equal('confirmed');
  });

  it('shows the expired view with "Start again" and fires svc-expired', async function () {
    this.timeout(30000);
    const events = recordEvents(document, ['svc-expired', 'svc-session']);
    const el = await mount({ 'session-url': '/test/session?amount=2.00' });
    await waitFor(() => el.payment, { message: 'the payment' });
    const first = el.payment.id;
    await server('svc-expire-now', { id: first });
    await waitFor(() => el.status === 'expired', { message: 'expired' });
    await el.updateComplete;
    expect(events.filter((e) => e.type === 'svc-expired')).to.have.length(1);
    expect(part(el, 'status').textContent).to.equal('This payment has expired');
    const again = el.shadowRoot.querySelector('[data-action="restart"]');
    expect(again).to.exist;
    again.click();
    await waitFor(() => el.payment && el.payment.id !== first, { message: 'a new payment' });
    expect(el.status).to.equal('pending');
    expect(events.filter((e) => e.type === 'svc-session')).to.have.length(2);
  });

  it('"Start again" after a last-second payment shows it confirmed instead of making a second payment', async function () {
    this.timeout(40000);
    const events = recordEvents(document, ['svc-confirmed', 'svc-session']);
    const el = await mount({ 'session-url': '/test/session?amount=3.00' });
    await waitFor(() => el.payment, { message: 'the payment' });
    const { id, url } = el.payment;
    await server('svc-expire-now', { id });
    await waitFor(() => el.status === 'expired', { message: 'expired' });
    await server('svc-pay', { url }); // lands after expiry: the gateway's late watch still counts it
    await el.updateComplete;
    el.shadowRoot.querySelector('[data-action="restart"]').click();
    await waitFor(() => el.status === 'confirmed', { timeout: 20000, message: 'confirmed late' });
    expect(el.payment.id).to.equal(id);
    expect(el.payment.paidLate).to.equal(true);
    expect(events.filter((e) => e.type === 'svc-session')).to.have.length(1); // no second payment
    expect(events.filter((e) => e.type === 'svc-confirmed')).to.have.length(1);
  });

  it('says so when a transfer falls short, and stays pending', async function () {
    this.timeout(30000);
    const { el, session } = await mountPayment({}, { amount: '2.00' });
    const short = session.payment.url.replace('amount=2.00', 'amount=0.5');
    expect(short).not.to.equal(session.payment.url);
    await server('svc-pay', { url: short });
    await waitFor(() => el.payment.amountReceived, { timeout: 20000, message: 'the short transfer seen' });
    await el.updateComplete;
    expect(el.status).to.equal('pending');
    expect(part(el, 'status').textContent).to.equal('Received 0.5 USDC, less than the amount due. Please contact the shop.');
  });

  it('shows the cancellation when the merchant cancels', async () => {
    const events = recordEvents(document, ['svc-status']);
    const { el, session } = await mountPayment();
    await server('svc-cancel', { id: session.paymentId });
    await waitFor(() => el.status === 'cancelled', { message: 'cancelled' });
    await el.updateComplete;
    expect(part(el, 'status').textContent).to.equal('This payment was cancelled');
    expect(el.shadowRoot.querySelector('[data-action="restart"]')).to.equal(null);
    expect(events.at(-1).detail).to.include({ status: 'cancelled', previous: 'pending' });
  });

  it('stops polling when removed, and moving it never starts a second poller', async function () {
    this.timeout(30000);
    // Through the same-origin proxy, so every verify call is counted.
    const { el, session } = await mountPayment({ 'base-url': `${location.origin}/gw/main` });
    await waitFor(async () => (await verifyCalls(session.paymentId)) >= 2, { message: 'polling through the proxy' });

    const box = document.createElement('div');
    document.body.append(box);
    for (let i = 0; i < 5; i++) {
      box.append(el); // disconnect + connect
      document.body.append(el);
    }
    const start = await verifyCalls(session.paymentId);
    await new Promise((r) => setTimeout(r, 4000));
    const during = (await verifyCalls(session.paymentId)) - start;
    // About 1 s apart at first: one poller makes ~4-5 calls in 4 s (plus one immediate call per reconnect), two would make ~8+.
    expect(during).to.be.within(2, 7);

    el.remove();
    box.remove();
    await new Promise((r) => setTimeout(r, 300));
    const afterRemove = await verifyCalls(session.paymentId);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await verifyCalls(session.paymentId)).to.equal(afterRemove);
  });

  it('pauses while the page is hidden and asks at once when it is shown again', async function () {
    this.timeout(30000);
    const { el, session } = await mountPayment({ 'base-url': `${location.origin}/gw/main` });
    await waitFor(async () => (await verifyCalls(session.paymentId)) >= 1, { message: 'polling' });
    const setHidden = (hidden) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    try {
      setHidden(true);
      await new Promise((r) => setTimeout(r, 300));
      const hiddenAt = await verifyCalls(session.paymentId);
      await new Promise((r) => setTimeout(r, 3000));
      expect(await verifyCalls(session.paymentId)).to.equal(hiddenAt);
      const shownAt = Date.now();
      setHidden(false);
      await waitFor(async () => (await verifyCalls(session.paymentId)) > hiddenAt, { timeout: 5000, message: 'a call on return' });
      expect(Date.now() - shownAt).to.be.below(900); // at once, not at the next ~1 s tick
      expect(el.status).to.equal('pending');
    } finally {
      delete document.hidden;
      delete document.visibilityState;
    }
  });
});
