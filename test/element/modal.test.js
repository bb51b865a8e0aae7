// mode="button": keyboard-only use of the dialog, with real key presses.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../dist/svc-checkout.mjs';
import { axeViolations, cleanup, mount, part, recordEvents, server, waitFor } from './support/helpers.js';

/** The element focused inside the shadow root, or the light DOM element. */
const focused = (el) => el.shadowRoot.activeElement ?? document.activeElement;

describe('modal dialog (mode="button")', () => {
  afterEach(cleanup);

  it('opens from the keyboard, traps Tab, closes on Escape and returns focus to the button', async function () {
    this.timeout(30000);
    const s = await server('svc-create-session');
    const events = recordEvents(document, ['svc-close', 'svc-session']);
    const before = document.createElement('button');
    before.textContent = 'before';
    document.body.append(before);
    const el = await mount({ mode: 'button', 'payment-id': s.paymentId, 'payment-token': s.paymentToken, 'base-url': s.baseUrl });
    // A button creates nothing until the customer asks.
    await new Promise((r) => setTimeout(r, 300));
    expect(events).to.deep.equal([]);
    expect(el.payment).to.equal(null);

    before.focus();
    await sendKeys({ press: 'Tab' });
    const trigger = part(el, 'trigger');
    expect(focused(el)).to.equal(trigger);
    await sendKeys({ press: 'Enter' });
    const dialog = part(el, 'dialog');
    expect(dialog.open).to.equal(true);
    expect(dialog.getAttribute('aria-labelledby')).to.equal('title');
    await waitFor(() => el.payment, { message: 'the payment' });
    await el.updateComplete;
    expect(dialog.contains(focused(el))).to.equal(true);
    expect(el.shadowRoot.getElementById('title').textContent).to.contain(s.payment.merchant.name);

    const seen = new Set();
    for (let i = 0; i < 14; i++) {
      if (i % 4 === 3) {
        await sendKeys({ down: 'Shift' });
        await sendKeys({ press: 'Tab' });
        await sendKeys({ up: 'Shift' });
      } else {
        await sendKeys({ press: 'Tab' });
      }
      const f = focused(el);
      expect(dialog.contains(f), `focus left the dialog at step ${i}: ${f?.outerHTML?.slice(0, 60)}`).to.equal(true);
      seen.add(f);
    }
    expect(seen.size).to.be.at.least(4);
    expect(await axeViolations(el)).to.deep.equal([]);

    await sendKeys({ press: 'Escape' });
    await waitFor(() => !dialog.open, { message: 'the dialog to close' });
    expect(events.filter((e) => e.type === 'svc-close')).to.have.length(1);
    expect(focused(el)).to.equal(trigger);
    before.remove();
  });

  it('open() and close() work from script, and the close button closes', async () => {
    const s = await server('svc-create-session');
    const el = await mount({ mode: 'button', 'payment-id': s.paymentId, 'payment-token': s.paymentToken, 'base-url': s.baseUrl });
    el.open();
    const dialog = part(el, 'dialog');
    expect(dialog.open).to.equal(true);
    await waitFor(() => el.payment, { message: 'the payment' });
    el.close();
    expect(dialog.open).to.equal(false);
    el.open();
    await el.updateComplete;
    part(el, 'close-button').click();
    expect(dialog.open).to.equal(false);
  });
});
