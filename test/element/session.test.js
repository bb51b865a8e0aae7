// The three session sources.
import { expect } from '@open-wc/testing';
import '../../dist/svc-checkout.mjs';
import { cleanup, decodeQr, mount, part, recordEvents, server, waitFor } from './support/helpers.js';

describe('session sources', () => {
  beforeEach(() => server('svc-clear-log'));
  afterEach(cleanup);

  it('session-url: POSTs session-data as JSON with same-origin credentials, then follows the payment', async () => {
    document.cookie = 'shop_session=abc123; path=/';
    const events = recordEvents(document, ['svc-session']);
    const el = await mount({ 'session-url': '/test/session?amount=4.20', 'session-data': '{"cart":"c_42","items":[1,2]}' });
    await waitFor(() => el.payment, { message: 'the payment' });
    const [body] = await server('svc-session-bodies');
    expect(JSON.parse(body.body)).to.deep.equal({ cart: 'c_42', items: [1, 2] });
    expect(body.contentType).to.contain('application/json');
    expect(body.cookie).to.contain('shop_session=abc123');
    expect(events).to.have.length(1);
    expect(el.payment.amount).to.equal('4.20');
    expect(await decodeQr(el)).to.equal(el.payment.url);
    document.cookie = 'shop_session=; max-age=0; path=/';
  });

  it('session-url: the sessionData property wins over the attribute', async () => {
    const el = document.createElement('svc-checkout');
    el.sessionData = { cart: 'from-property' };
    el.setAttribute('session-url', '/test/session');
    document.body.append(el);
    await waitFor(() => el.payment, { message: 'the payment' });
    const [body] = await server('svc-session-bodies');
    expect(JSON.parse(body.body)).to.deep.equal({ cart: 'from-property' });
  });

  it('session-url: a failing session endpoint shows the error view, and "Try again" asks again', async () => {
    const events = recordEvents(document, ['svc-error']);
    const el = await mount({ 'session-url': '/test/session?currency=NOPE' });
    await waitFor(() => events.length, { message: 'svc-error' });
    expect(events[0].detail).to.include({ status: 502, code: 'test_session_failed' });
    await el.updateComplete;
    expect(part(el, 'final').classList.contains('bad')).to.equal(true);
    el.shadowRoot.querySelector('[data-action="retry"]').click();
    await waitFor(() => events.length === 2, { message: 'a second svc-error' });
    expect(await server('svc-session-bodies')).to.have.length(2);
  });

  it('api-key: a publishable key creates the payment from the browser', async () => {
    const info = await server('svc-info');
    expect(info.publishableKey).to.match(/^svc_pk_test_/);
    const el = await mount({ 'api-key': info.publishableKey, amount: '7.00', currency: 'USDC', 'base-url': `${location.origin}/gw/main` });
    await waitFor(() => el.payment, { message: 'the payment' });
    expect(el.payment).to.include({ amount: '7.00', currency: 'USDC', status: 'pending' });
    const create = (await server('svc-requests')).find((r) => r.url.endsWith('/api/v1/payments'));
    expect(create.headers.authorization).to.equal(`Bearer ${info.publishableKey}`);
    expect(await decodeQr(el)).to.equal(el.payment.url);
  });

  it('payment-id + payment-token: a wrong token shows an error and stops', async () => {
    const s = await server('svc-create-session');
    const events = recordEvents(document, ['svc-error']);
    const el = await mount({ 'payment-id': s.paymentId, 'payment-token': 'svc_pt_' + 'x'.repeat(43), 'base-url': s.baseUrl });
    await waitFor(() => events.length, { message: 'svc-error' });
    expect(events[0].detail.status).to.equal(401);
    expect(part(el, 'final')).to.exist;
  });
});
