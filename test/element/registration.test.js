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
});
