import { expect } from '@open-wc/testing';
import '../../dist/svc-checkout.mjs';
import { loadScript, mount, cleanup } from './support/helpers.js';

describe('<svc-checkout> registration', () => {
  afterEach(cleanup);

  it('defines the element from the bundle', () => {
    expect(customElements.get('svc-checkout')).to.be.a('function');
  });

  it('renders a shadow root with the base part', async () => {
    const el = await mount();
    expect(el.shadowRoot.querySelector('[part~="base"]')).to.exist;
  });

  it('loading the classic script twice warns and never throws', async () => {
    const errors = [];
    const onError = (e) => errors.push(e.message);
    window.addEventListener('error', onError);
    const warn = console.warn;
    const warnings = [];
    console.warn = (...args) => warnings.push(args.join(' '));
    try {
      await loadScript('/dist/svc-checkout.js');
      await loadScript('/dist/svc-checkout.js?again');
    } finally {
      console.warn = warn;
      window.removeEventListener('error', onError);
    }
    expect(errors).to.deep.equal([]);
    expect(warnings.filter((w) => w.includes('already defined'))).to.have.length(2);
    // The first definition (the ES module) still works.
    const el = await mount();
    expect(el.shadowRoot.querySelector('[part~="base"]')).to.exist;
  });

  it('ships a production bundle without eval, Solana libraries or development Lit', async () => {
    for (const file of ['/dist/svc-checkout.js', '/dist/svc-checkout.mjs']) {
      const code = await (await fetch(file)).text();
      expect(code, file).not.to.match(/\beval\(|new Function\(|setTimeout\(\s*["'`]/);
      expect(code, file).not.to.match(/@solana\/web3|PublicKey\.prototype|TransactionInstruction/);
      expect(code, file).not.to.contain('Lit is in dev mode');
      expect(code, file).not.to.contain('dijkstra'); // qrcode's segmentation search stays out
    }
  });
});
