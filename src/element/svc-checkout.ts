import { LitElement, html, css } from 'lit';

/**
 * The checkout element. Placeholder: renders its shell; the session, QR code and polling come with
 * the element issue.
 *
 * @tag svc-checkout
 * @csspart base - The element's outer box.
 */
export class SvcCheckout extends LitElement {
  static override styles = css`
    :host { display: block; font: 16px/1.4 system-ui, sans-serif; }
  `;

  override render() {
    return html`<div part="base" role="region" aria-label="Checkout"><slot></slot></div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'svc-checkout': SvcCheckout;
  }
}
