import { expect, fixture, html } from '@open-wc/testing';
import '../../dist/svc-checkout.mjs';

describe('<svc-checkout> registration', () => {
  it('defines the element from the bundle', () => {
    expect(customElements.get('svc-checkout')).to.be.a('function');
  });

  it('renders a shadow root with the base part', async () => {
    const el = await fixture(html`<svc-checkout></svc-checkout>`);
    expect(el.shadowRoot.querySelector('[part~="base"]')).to.exist;
  });
});
