// The classic script on a page served with Content-Security-Policy: default-src 'self'.
import { expect } from '@open-wc/testing';
import { server, waitFor, decodeQr } from './support/helpers.js';

describe('strict Content-Security-Policy', () => {
  it("renders and follows a payment under default-src 'self' with no violation", async function () {
    this.timeout(30000);
    const s = await server('svc-create-session');
    const q = new URLSearchParams({ 'payment-id': s.paymentId, 'payment-token': s.paymentToken, 'base-url': `${location.origin}/gw/main`, theme: 'dark' });
    const frame = document.createElement('iframe');
    frame.src = `/test/csp.html?${q}`;
    document.body.append(frame);
    await new Promise((r) => frame.addEventListener('load', r, { once: true }));
    const win = frame.contentWindow;
    const el = win.document.querySelector('svc-checkout');
    await waitFor(() => el.payment, { message: 'the payment in the CSP page' });
    await el.updateComplete;
    expect(win.document.querySelector('meta[http-equiv]')).to.equal(null);
    expect(el.shadowRoot.querySelector('[style]')).to.equal(null);
    expect(await decodeQr(el)).to.equal(s.payment.url);
    expect(win.getComputedStyle(el.shadowRoot.querySelector('[part~="base"]')).borderTopStyle).to.equal('solid');
    expect(win.cspViolations).to.deep.equal([]);
    frame.remove();
  });

  it('the classic script fetches a language from locales/ next to it (Arabic, right to left)', async function () {
    this.timeout(30000);
    const s = await server('svc-create-session');
    const q = new URLSearchParams({ 'payment-id': s.paymentId, 'payment-token': s.paymentToken, 'base-url': `${location.origin}/gw/main`, locale: 'ar' });
    const frame = document.createElement('iframe');
    frame.src = `/test/csp.html?${q}`;
    document.body.append(frame);
    await new Promise((r) => frame.addEventListener('load', r, { once: true }));
    const el = frame.contentWindow.document.querySelector('svc-checkout');
    const status = () => el.shadowRoot?.querySelector('[part~="status"]')?.textContent;
    await waitFor(() => status() === 'في انتظار الدفع', { message: 'the Arabic status' });
    expect(el.shadowRoot.querySelector('[part~="base"]').getAttribute('dir')).to.equal('rtl');
    const bundle = await (await fetch('/dist/svc-checkout.js')).text();
    expect(bundle).not.to.contain('في انتظار الدفع'); // it came from locales/ar.json
    expect(frame.contentWindow.cspViolations).to.deep.equal([]);
    frame.remove();
  });
});
