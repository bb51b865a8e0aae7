// Languages, right-to-left layout, themes, and an accessibility audit of every view.
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../dist/svc-checkout.mjs';
import { axeViolations, cleanup, decodeQr, mount, mountPayment, part, server, waitFor } from './support/helpers.js';

const rgb = (el, prop) => getComputedStyle(el)[prop].match(/\d+/g).slice(0, 3).map(Number);
const luminance = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

describe('appearance', () => {
  afterEach(async () => {
    cleanup();
    document.documentElement.lang = 'en';
    await emulateMedia({ colorScheme: 'light' });
  });

  it('speaks every supported language', async () => {
    const s = await server('svc-create-session');
    const expected = {
      en: 'Waiting for payment', es: 'Esperando el pago', fr: 'En attente du paiement', de: 'Warte auf Zahlung',
      pt: 'Aguardando pagamento', ja: 'お支払いを待っています', zh: '等待付款', ar: 'في انتظار الدفع',
    };
    for (const [locale, text] of Object.entries(expected)) {
      const el = await mount({ locale, 'payment-id': s.paymentId, 'payment-token': s.paymentToken, 'base-url': s.baseUrl });
      await waitFor(() => el.payment, { message: `payment (${locale})` });
      await el.updateComplete;
      expect(part(el, 'status').textContent, locale).to.equal(text);
      expect(part(el, 'base').getAttribute('lang')).to.equal(locale);
      el.remove();
    }
  });

  it('ships every language complete: the same keys everywhere, none empty', async () => {
    const langs = ['es', 'fr', 'de', 'pt', 'ja', 'zh', 'ar'];
    const tables = await Promise.all(langs.map(async (l) => (await fetch(`/dist/locales/${l}.json`)).json()));
    const keys = Object.keys(tables[0]).sort();
    expect(keys.length).to.be.at.least(20);
    tables.forEach((t, i) => {
      expect(Object.keys(t).sort(), langs[i]).to.deep.equal(keys);
      expect(Object.entries(t).filter(([, v]) => typeof v !== 'string' || !v.trim()), langs[i]).to.deep.equal([]);
      // Placeholders survive translation.
      expect(['payTo', 'payWith', 'expiresIn', 'underpaid'].every((k) => t[k].includes('{0}')), langs[i]).to.equal(true);
    });
  });

  it('takes the language from <html lang> ("pt-BR" → pt) and falls back to English', async () => {
    const s = await server('svc-create-session');
    document.documentElement.lang = 'pt-BR';
    const el = await mount({ 'payment-id': s.paymentId, 'payment-token': s.paymentToken, 'base-url': s.baseUrl });
    await waitFor(() => el.payment, { message: 'the payment' });
    await el.updateComplete;
    expect(part(el, 'status').textContent).to.equal('Aguardando pagamento');
    el.locale = 'xx';
    await el.updateComplete;
    expect(part(el, 'status').textContent).to.equal('Waiting for payment');
  });

  it('lays Arabic out right to left', async () => {
    const { el } = await mountPayment({ locale: 'ar' });
    const base = part(el, 'base');
    expect(base.getAttribute('dir')).to.equal('rtl');
    expect(getComputedStyle(base).direction).to.equal('rtl');
    // A field row: the input starts on the right and its copy button sits to its left.
    const input = el.shadowRoot.querySelector('[part~="field"]');
    const button = input.nextElementSibling;
    expect(button.getBoundingClientRect().right).to.be.at.most(input.getBoundingClientRect().left + 1);
    // Text starts at the right edge.
    const status = part(el, 'status');
    expect(getComputedStyle(status).textAlign).to.be.oneOf(['start', 'right']);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('dark theme: dark surface, readable text, and a QR code still dark on white that decodes', async () => {
    const { el, session } = await mountPayment({ theme: 'dark' });
    const base = part(el, 'base');
    expect(luminance(rgb(base, 'backgroundColor'))).to.be.below(60);
    expect(luminance(rgb(base, 'color'))).to.be.above(180);
    expect(await decodeQr(el)).to.equal(session.payment.url);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('theme="auto" follows prefers-color-scheme; theme="light" does not', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const { el } = await mountPayment({ theme: 'auto' });
    expect(luminance(rgb(part(el, 'base'), 'backgroundColor'))).to.be.below(60);
    el.theme = 'light';
    await el.updateComplete;
    expect(luminance(rgb(part(el, 'base'), 'backgroundColor'))).to.be.above(200);
  });

  it('merchants restyle through --svc-* properties and ::part()', async () => {
    const style = document.createElement('style');
    style.textContent = 'svc-checkout.branded { --svc-accent: rgb(200, 0, 0); } svc-checkout.branded::part(amount) { color: rgb(0, 128, 0); }';
    document.head.append(style);
    const { el } = await mountPayment({ class: 'branded' });
    expect(getComputedStyle(part(el, 'open-wallet')).backgroundColor).to.equal('rgb(200, 0, 0)');
    expect(getComputedStyle(part(el, 'amount')).color).to.equal('rgb(0, 128, 0)');
    style.remove();
  });
});

describe('accessibility audit (axe-core) of every view', () => {
  afterEach(cleanup);

  it('pending', async () => {
    const { el } = await mountPayment();
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('loading', async () => {
    const el = await mount({ 'session-url': '/test/session?amount=1.00' });
    expect(el.shadowRoot.querySelector('[role="status"]').textContent).to.equal('Loading…');
    expect(await axeViolations(el)).to.deep.equal([]);
    await waitFor(() => el.payment, { message: 'the payment' });
  });

  it('confirmed', async function () {
    this.timeout(60000);
    const { el, session } = await mountPayment();
    await server('svc-pay', { url: session.payment.url });
    await waitFor(() => el.status === 'confirmed', { timeout: 40000, message: 'confirmed' });
    await el.updateComplete;
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('expired', async () => {
    const el = await mount({ 'session-url': '/test/session' });
    await waitFor(() => el.payment, { message: 'the payment' });
    await server('svc-expire-now', { id: el.payment.id });
    await waitFor(() => el.status === 'expired', { message: 'expired' });
    await el.updateComplete;
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('cancelled', async () => {
    const { el, session } = await mountPayment();
    await server('svc-cancel', { id: session.paymentId });
    await waitFor(() => el.status === 'cancelled', { message: 'cancelled' });
    await el.updateComplete;
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it('error', async () => {
    const el = await mount({ 'api-key': 'svc_live_' + 'k'.repeat(43) });
    await waitFor(() => el.shadowRoot.querySelector('[part~="final"]'), { message: 'the error view' });
    expect(await axeViolations(el)).to.deep.equal([]);
  });
});
