import { expect } from '@open-wc/testing';
import '../../dist/svc-checkout.mjs';
import { cleanup, mount, part, recordEvents, server, waitFor } from './support/helpers.js';

// A secret key in a web page is a leaked key: the element must refuse it, say so, and send it nowhere.
const SECRET_LIVE = 'svc_live_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';
const SECRET_TEST = 'svc_test_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2H1g0F9e';

describe('secret keys are refused and never sent', () => {
  beforeEach(() => server('svc-clear-log'));
  afterEach(cleanup);

  for (const key of [SECRET_LIVE, SECRET_TEST]) {
    it(`refuses ${key.slice(0, 9)}... visibly, fires svc-error, and sends no request`, async () => {
      const before = performance.getEntriesByType('resource').length;
      const events = recordEvents(document, ['svc-error', 'svc-session']);
      const el = await mount({ 'api-key': key, amount: '5.00', currency: 'USDC', 'base-url': `${location.origin}/log/gateway` });
      await waitFor(() => el.shadowRoot.querySelector('[part~="final"]'), { message: 'the error view' });
      const errors = events.filter((e) => e.type === 'svc-error');
      expect(errors).to.have.length(1);
      expect(errors[0].detail.code).to.equal('secret_key_refused');
      expect(errors[0].event.bubbles && errors[0].event.composed).to.equal(true);
      expect(events.some((e) => e.type === 'svc-session')).to.equal(false);
      expect(part(el, 'status').textContent).to.match(/secret key/i);
      expect(el.shadowRoot.textContent).not.to.contain(key);
      // No retry button for a refused key: retrying cannot help.
      expect(el.shadowRoot.querySelector('[data-action="retry"]')).to.equal(null);

      await new Promise((r) => setTimeout(r, 300));
      const fetched = performance.getEntriesByType('resource').slice(before).map((e) => e.name);
      expect(fetched.filter((u) => !u.includes('/__web-dev-server') && !u.includes('wtr-session'))).to.deep.equal([]);
      const logged = await server('svc-requests');
      expect(logged).to.deep.equal([]);
      expect(JSON.stringify(logged)).not.to.contain(key);
    });
  }

  it('refuses a secret key even when another session source is also set', async () => {
    const events = recordEvents(document, ['svc-error']);
    const el = await mount({ 'session-url': '/log/session', 'api-key': SECRET_LIVE });
    await waitFor(() => events.length, { message: 'svc-error' });
    expect(events[0].detail.code).to.equal('secret_key_refused');
    expect(el.status).to.equal(null);
    expect(await server('svc-requests')).to.deep.equal([]);
  });

  it('refuses a secret key that a broken backend sent as the payment token, and sends it nowhere', async () => {
    const events = recordEvents(document, ['svc-error', 'svc-session']);
    await mount({ 'session-url': '/test/session?leak=1&proxy=1' });
    await waitFor(() => events.length, { message: 'svc-error' });
    expect(events.map((e) => e.type)).to.deep.equal(['svc-error']);
    expect(events[0].detail.code).to.equal('secret_key_refused');
    await new Promise((r) => setTimeout(r, 500));
    const info = await server('svc-info');
    const logged = await server('svc-requests'); // everything that went through the gateway proxy
    expect(logged).to.deep.equal([]);
    expect(JSON.stringify(logged)).not.to.contain(info.secretKey);
  });

  it('rejects a key that is not a publishable key without sending it', async () => {
    const events = recordEvents(document, ['svc-error']);
    await mount({ 'api-key': 'sk_live_123', amount: '1', currency: 'USDC', 'base-url': `${location.origin}/log/gateway` });
    await waitFor(() => events.length, { message: 'svc-error' });
    expect(events[0].detail.code).to.equal('invalid_api_key');
    expect(await server('svc-requests')).to.deep.equal([]);
  });
});
