// What the customer sees, on payments created by the real gateway.
import { expect } from '@open-wc/testing';
import { setUserAgent } from '@web/test-runner-commands';
import '../../dist/svc-checkout.mjs';
import { cleanup, decodeQr, mountPayment, part, parts, recordEvents, waitFor } from './support/helpers.js';

describe('checkout view on a real payment', () => {
  afterEach(cleanup);

  it('shows merchant, amount and a QR code that decodes to exactly the Solana Pay URL', async () => {
    const { el, session } = await mountPayment({}, { amount: '12.50', currency: 'USDC' });
    expect(session.payment.url).to.match(/^solana:/);
    expect(await decodeQr(el)).to.equal(session.payment.url);
    expect(part(el, 'merchant').textContent).to.contain(session.payment.merchant.name);
    expect(part(el, 'amount').textContent.trim()).to.equal('12.50 USDC');
    expect(part(el, 'status').getAttribute('role')).to.equal('status');
    expect(part(el, 'status').textContent).to.equal('Waiting for payment');
    expect(part(el, 'qr-code').getAttribute('aria-label')).to.contain(session.payment.url);
    expect(el.status).to.equal('pending');
    expect(el.payment.id).to.equal(session.paymentId);
  });

  it('keeps a quiet zone and dark modules on white', async () => {
    const { el } = await mountPayment();
    const svg = part(el, 'qr-code');
    const [bg, path] = svg.children;
    expect(bg.getAttribute('fill')).to.equal('#ffffff');
    expect(path.getAttribute('fill')).to.equal('#000000');
    // Every module rectangle starts at least 4 modules in from each edge.
    const n = svg.viewBox.baseVal.width;
    const starts = [...path.getAttribute('d').matchAll(/M(\d+) (\d+)h(\d+)/g)].map((m) => m.slice(1).map(Number));
    expect(Math.min(...starts.map(([x]) => x), ...starts.map(([, y]) => y))).to.equal(4);
    expect(Math.max(...starts.map(([x, , w]) => x + w), ...starts.map(([, y]) => y + 1))).to.equal(n - 4);
  });

  it('links the solana: URL and, behind "Other wallets", the Phantom and Solflare browse links', async () => {
    const { el, session } = await mountPayment();
    expect(part(el, 'open-wallet').getAttribute('href')).to.equal(session.payment.url);
    const details = part(el, 'other-wallets');
    expect(details.tagName).to.equal('DETAILS');
    expect(details.open).to.equal(false);
    const page = encodeURIComponent(location.href);
    const ref = encodeURIComponent(location.origin);
    expect(parts(el, 'browse-link').map((a) => a.getAttribute('href'))).to.deep.equal([
      `https://phantom.app/ul/browse/${page}?ref=${ref}`,
      `https://solflare.com/ul/v1/browse/${page}?ref=${ref}`,
    ]);
  });

  it('shows the browse links up front on a phone', async () => {
    const desktop = navigator.userAgent;
    await setUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1');
    try {
      const { el } = await mountPayment();
      expect(part(el, 'other-wallets')).to.equal(null);
      expect(parts(el, 'browse-link').map((a) => a.textContent.trim())).to.deep.equal(['Phantom', 'Solflare']);
    } finally {
      await setUserAgent(desktop);
    }
  });

  it('copies address and amount, and selects the text where the clipboard refuses', async () => {
    const { el, session } = await mountPayment({}, { amount: '3.10' });
    const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    const written = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t) => void written.push(t) } });
    try {
      const [copyAddress, copyAmount] = parts(el, 'copy-button');
      copyAddress.click();
      copyAmount.click();
      await waitFor(() => written.length === 2, { message: 'clipboard writes' });
      expect(written).to.deep.equal([session.payment.recipient, '3.10']);
      await el.updateComplete;
      expect(copyAmount.textContent.trim()).to.equal('Copied');

      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });
      copyAddress.click();
      const input = parts(el, 'field')[0];
      await waitFor(() => el.shadowRoot.activeElement === input, { message: 'the address field selected' });
      expect(input.readOnly).to.equal(true);
      expect([input.selectionStart, input.selectionEnd]).to.deep.equal([0, session.payment.recipient.length]);
    } finally {
      delete navigator.clipboard;
      if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original);
    }
  });

  it('counts down on the server clock, whatever the customer clock says', async () => {
    const realNow = Date.now;
    // The customer's clock runs 10 minutes fast.
    Date.now = () => realNow() + 10 * 60_000;
    try {
      const { el, session } = await mountPayment({}, { expiresIn: 900 });
      const left = Date.parse(session.payment.expiresAt) - Date.parse(session.payment.serverTime);
      const [m, s] = part(el, 'countdown').textContent.match(/(\d+):(\d\d)/).slice(1).map(Number);
      const shown = (m * 60 + s) * 1000;
      expect(Math.abs(shown - left)).to.be.below(5000);
      expect(shown).to.be.above(10 * 60_000);
    } finally {
      Date.now = realNow;
    }
  });

  it('fires svc-session and svc-status (bubbling, composed) when the session loads', async () => {
    const events = recordEvents(document, ['svc-session', 'svc-status']);
    const { session } = await mountPayment();
    expect(events.map((e) => e.type)).to.deep.equal(['svc-session', 'svc-status']);
    expect(events[0].detail.paymentId).to.equal(session.paymentId);
    expect(events[0].detail).not.to.have.property('paymentToken');
    expect(events[1].detail).to.include({ status: 'pending', previous: null });
    expect(events.every((e) => e.event.bubbles && e.event.composed)).to.equal(true);
  });

  it('renders two independent checkouts on one page', async () => {
    const a = await mountPayment({}, { amount: '1.00' });
    const b = await mountPayment({}, { amount: '2.00' });
    expect(a.el.payment.id).not.to.equal(b.el.payment.id);
    expect(await decodeQr(a.el)).to.equal(a.session.payment.url);
    expect(await decodeQr(b.el)).to.equal(b.session.payment.url);
    // Ids inside each shadow root do not clash with the other's.
    expect(part(a.el, 'base').getAttribute('aria-labelledby')).to.equal('title');
    expect(a.el.shadowRoot.getElementById('title')).to.not.equal(b.el.shadowRoot.getElementById('title'));
  });
});
