import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { PaymentStatus, PublicPayment } from '../core/payment.js';
import { verifyPayment } from './api.js';
import { Countdown } from './countdown.js';
import { browseLinks, isPhone, walletLink } from './deeplinks.js';
import { CheckoutError } from './errors.js';
import { emit } from './events.js';
import { format, isRtl, loadLocale, messages, resolveLocale } from './i18n.js';
import type { MessageKey } from './i18n.js';
import { trapTab } from './modal.js';
import { Poller } from './poller.js';
import { qrSvg } from './qr.js';
import { loadSession, sessionSource } from './session.js';
import type { Session } from './session.js';
import { styles } from './styles.js';
import { isUserRejection, payWithWallet, payableWallets, watchWallets } from './wallets.js';
import type { StandardWallet } from './wallets.js';

type View = 'idle' | 'loading' | 'ready' | 'error';

/** `session-data` is JSON; anything else is sent as the string it is. */
const jsonAttribute = {
  fromAttribute(value: string | null): unknown {
    if (value == null) return undefined;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
};

const SOURCE_PROPS = ['sessionUrl', 'paymentId', 'paymentToken', 'apiKey', 'amount', 'currency', 'baseUrl'];

/**
 * A Solana checkout: shows the payment's QR code and wallet links, follows its status, and says when it is paid.
 *
 * @tag svc-checkout
 * @summary Solana checkout for any page, from one script tag.
 *
 * @attr session-url - URL of the merchant's session endpoint (POST, same-origin credentials) answering `{paymentId, paymentToken, baseUrl?, payment}`.
 * @attr session-data - JSON body sent to `session-url` (or set the `sessionData` property).
 * @attr payment-id - Id of a payment created by the merchant's server (with `payment-token`).
 * @attr payment-token - The payment token (`svc_pt_...`) of that payment.
 * @attr base-url - The gateway's URL. Defaults to the session's `baseUrl`, else this page's origin.
 * @attr api-key - A publishable key (`svc_pk_...`) to create the payment from the browser, with `amount` and `currency`. Secret keys are refused and never sent.
 * @attr amount - Decimal amount such as "12.50" (with `api-key`).
 * @attr currency - Currency symbol such as "USDC" (with `api-key`).
 * @attr mode - `inline` (default) or `button`: a button that opens the checkout in a modal dialog.
 * @attr theme - `light` (default), `dark`, or `auto` (follows prefers-color-scheme).
 * @attr locale - en, es, fr, de, pt, ja, zh or ar. Defaults to `<html lang>`.
 *
 * @fires {CustomEvent<{paymentId: string, payment: PublicPayment}>} svc-session - A session was loaded.
 * @fires {CustomEvent<{status: string, previous: string | null, payment: PublicPayment}>} svc-status - The payment status changed.
 * @fires {CustomEvent<{payment: PublicPayment}>} svc-confirmed - The payment is confirmed. Fired once.
 * @fires {CustomEvent<{payment: PublicPayment}>} svc-expired - The payment expired unpaid.
 * @fires {CustomEvent<{code: string, message: string, status?: number}>} svc-error - A session could not be loaded, a key was refused, or a wallet failed.
 * @fires {CustomEvent<{status: string | null}>} svc-close - The modal dialog was closed.
 *
 * @slot - Text of the button in `mode="button"` (default "Pay with Solana").
 *
 * @csspart base - The checkout box.
 * @csspart header - Merchant logo and name.
 * @csspart logo - The merchant's logo.
 * @csspart merchant - The merchant's name.
 * @csspart amount - The amount and currency.
 * @csspart status - The live status line.
 * @csspart qr - The box around the QR code.
 * @csspart qr-code - The QR code's SVG.
 * @csspart open-wallet - The "Open in wallet" link (solana: URL).
 * @csspart wallet-button - Each "Pay with <wallet>" button.
 * @csspart other-wallets - The "Other wallets" disclosure.
 * @csspart browse-link - Each Phantom / Solflare link.
 * @csspart copy-button - The copy buttons.
 * @csspart field - The read-only address and amount fields.
 * @csspart countdown - Time left before the payment expires.
 * @csspart final - The confirmed, expired, cancelled and error views.
 * @csspart action - "Try again" / "Start again" / "Close" buttons of the final views.
 * @csspart trigger - The button that opens the dialog (`mode="button"`).
 * @csspart dialog - The modal dialog (`mode="button"`).
 * @csspart close-button - The dialog's close button.
 *
 * @cssprop --svc-font - Font family.
 * @cssprop --svc-font-size - Base font size (16px).
 * @cssprop --svc-max-width - Maximum width of the box (24rem).
 * @cssprop --svc-bg - Background colour.
 * @cssprop --svc-text - Text colour.
 * @cssprop --svc-muted - Secondary text colour.
 * @cssprop --svc-border - Border colour.
 * @cssprop --svc-field - Background of fields and secondary buttons.
 * @cssprop --svc-accent - Colour of the main buttons.
 * @cssprop --svc-accent-text - Text colour on the main buttons.
 * @cssprop --svc-success - Colour of the confirmed state.
 * @cssprop --svc-danger - Colour of errors.
 * @cssprop --svc-focus - Focus ring colour.
 * @cssprop --svc-radius - Corner radius of the box (12px).
 * @cssprop --svc-button-radius - Corner radius of buttons (8px).
 * @cssprop --svc-padding - Padding of the box (1.25rem).
 * @cssprop --svc-qr-size - Width of the QR code (14rem). The code always stays dark on white.
 */
export class SvcCheckout extends LitElement {
  static override styles = styles;

  static override properties = {
    sessionUrl: { attribute: 'session-url' },
    sessionData: { attribute: 'session-data', converter: jsonAttribute },
    paymentId: { attribute: 'payment-id' },
    paymentToken: { attribute: 'payment-token' },
    baseUrl: { attribute: 'base-url' },
    apiKey: { attribute: 'api-key' },
    amount: {},
    currency: {},
    mode: { reflect: true },
    theme: { reflect: true },
    locale: { reflect: true },
    _view: { state: true },
    _payment: { state: true },
    _error: { state: true },
    _reconnecting: { state: true },
    _walletBusy: { state: true },
    _notice: { state: true },
    _copied: { state: true },
    _wallets: { state: true },
    _open: { state: true },
  };

  declare sessionUrl: string | null;
  /** Body sent to `session-url` as JSON (cart id, items...). */
  declare sessionData: unknown;
  declare paymentId: string | null;
  declare paymentToken: string | null;
  declare baseUrl: string | null;
  declare apiKey: string | null;
  declare amount: string | null;
  declare currency: string | null;
  declare mode: 'inline' | 'button';
  declare theme: 'light' | 'dark' | 'auto';
  declare locale: string | null;

  declare private _view: View;
  declare private _payment: PublicPayment | null;
  declare private _error: CheckoutError | null;
  declare private _reconnecting: boolean;
  declare private _walletBusy: string | null;
  declare private _notice: string;
  declare private _copied: 'address' | 'amount' | null;
  declare private _wallets: StandardWallet[];
  declare private _open: boolean;

  private _session: Session | null = null;
  private _started = false;
  private _generation = 0;
  private _confirmedId: string | null = null;
  private _unwatchWallets: (() => void) | null = null;
  private _opener: HTMLElement | null = null;
  private readonly _poller = new Poller(this, {
    onPayment: (p) => this._applyPayment(p),
    onReconnecting: (r) => (this._reconnecting = r),
    onFatal: (e) => this._fail(e),
  });
  private readonly _countdown = new Countdown(this, () => this._poller.pollNow());

  constructor() {
    super();
    this.mode = 'inline';
    this.theme = 'light';
    this._view = 'idle';
    this._payment = null;
    this._error = null;
    this._reconnecting = false;
    this._walletBusy = null;
    this._notice = '';
    this._copied = null;
    this._wallets = [];
    this._open = false;
  }

  /** The payment as the gateway last showed it (public view), or null before a session. */
  get payment(): PublicPayment | null {
    return this._payment;
  }

  /** The payment's status, or null before a session. */
  get status(): PaymentStatus | null {
    return this._payment?.status ?? null;
  }

  /**
   * Loads a session from the configured source (again) and starts following it. Called by itself in
   * inline mode and on open() in button mode; call it after changing `sessionData`.
   */
  async start(): Promise<void> {
    const generation = ++this._generation;
    this._started = true;
    this._poller.stop();
    this._countdown.set(null, undefined);
    this._session = null;
    this._payment = null;
    this._error = null;
    this._notice = '';
    this._reconnecting = false;
    this._view = 'loading';
    try {
      const session = await loadSession(this);
      if (generation !== this._generation) return;
      this._session = session;
      this._view = 'ready';
      emit(this, 'svc-session', { paymentId: session.paymentId, payment: session.payment });
      this._applyPayment(session.payment);
      this._poller.start(session);
    } catch (err) {
      if (generation !== this._generation) return;
      this._fail(err instanceof CheckoutError ? err : new CheckoutError('unexpected', String((err as Error)?.message ?? err)));
    }
  }

  /** Opens the dialog (mode="button"), loading the session on first use. */
  open(): void {
    if (this._view === 'idle' || this._view === 'error') void this.start();
    if (this.mode !== 'button') return;
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog || dialog.open) return;
    const active = document.activeElement;
    this._opener = active === this ? (this.renderRoot.querySelector<HTMLElement>('[part~="trigger"]') ?? this) : (active as HTMLElement | null);
    dialog.showModal();
    this._open = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('dialog [autofocus], dialog .close')?.focus());
  }

  /** Closes the dialog (mode="button"). Polling goes on, so a payment made meanwhile is still seen. */
  close(): void {
    this.renderRoot.querySelector('dialog')?.close();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this._unwatchWallets = watchWallets(() => (this._wallets = payableWallets()));
    this._wallets = payableWallets();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this._unwatchWallets?.();
    this._unwatchWallets = null;
  }

  protected override willUpdate(): void {
    loadLocale(this._locale)?.then(() => this.requestUpdate());
  }

  protected override updated(changed: PropertyValues<this>): void {
    const sourceChanged = SOURCE_PROPS.some((p) => changed.has(p as keyof SvcCheckout));
    const configured = sessionSource(this) != null || !!this.apiKey;
    if (!configured || !this.isConnected) return;
    // Inline checkouts start by themselves; a button waits for the customer (no payment per page view).
    if (!this._started ? this.mode !== 'button' : sourceChanged) void this.start();
  }

  private _fail(error: CheckoutError): void {
    this._poller.stop();
    this._countdown.set(null, undefined);
    this._error = error;
    this._view = 'error';
    emit(this, 'svc-error', { code: error.code, message: error.message, ...(error.status ? { status: error.status } : {}) });
  }

  private _applyPayment(payment: PublicPayment): void {
    const previous = this._payment?.status ?? null;
    this._payment = payment;
    this._countdown.set(payment.status === 'pending' ? payment.expiresAt : null, payment.serverTime);
    if (payment.status === previous) return;
    emit(this, 'svc-status', { status: payment.status, previous, payment });
    if (payment.status === 'confirmed' && this._confirmedId !== payment.id) {
      this._confirmedId = payment.id;
      emit(this, 'svc-confirmed', { payment });
    }
    if (payment.status === 'expired') emit(this, 'svc-expired', { payment });
  }

  private async _pay(wallet: StandardWallet): Promise<void> {
    const session = this._session;
    if (!session || this._walletBusy) return;
    this._walletBusy = wallet.name;
    this._notice = '';
    try {
      await payWithWallet(wallet, { ...session, livemode: this._payment?.livemode ?? false });
      this._poller.hurry();
    } catch (err) {
      // Back to the choice either way; a refusal by the customer is not an error worth reporting.
      if (isUserRejection(err)) {
        this._notice = this._t('walletRejected');
      } else {
        const e = err instanceof CheckoutError ? err : new CheckoutError('wallet_error', err instanceof Error ? err.message : String(err));
        this._notice = e.message;
        emit(this, 'svc-error', { code: e.code, message: e.message, ...(e.status ? { status: e.status } : {}) });
      }
    } finally {
      this._walletBusy = null;
    }
  }

  /**
   * "Start again" after expiry. A transfer sent in the last seconds can still confirm the old payment
   * (paid late). Verify answers from the gateway's records and checks the chain in the background, so
   * ask a few times over about two seconds before making a new payment: nobody should pay twice.
   */
  private _restart = async (): Promise<void> => {
    const s = this._session;
    const generation = ++this._generation;
    this._view = 'loading';
    for (const wait of s ? [0, 1200, 1200] : []) {
      await new Promise((r) => setTimeout(r, wait));
      const p = await verifyPayment(s!.baseUrl, s!.paymentId, s!.paymentToken).catch(() => null);
      if (generation !== this._generation) return;
      if (p?.status === 'confirmed') {
        this._view = 'ready';
        return this._applyPayment(p);
      }
    }
    await this.start();
  };

  private async _copy(kind: 'address' | 'amount', event: Event): Promise<void> {
    const input = (event.currentTarget as HTMLElement).parentElement?.querySelector('input');
    if (!input) return;
    try {
      await navigator.clipboard.writeText(input.value);
      this._copied = kind;
      setTimeout(() => this._copied === kind && (this._copied = null), 2000);
    } catch {
      // No clipboard (permission, insecure context): select the text so the customer can copy it.
      input.focus();
      input.select();
    }
  }

  private _t(key: MessageKey, arg = ''): string {
    return format(messages(this._locale)[key], arg);
  }

  private get _locale(): string {
    return resolveLocale(this.locale || document.documentElement.lang);
  }

  private _statusText(): string {
    if (this._view === 'loading') return this._t('loading');
    if (this._view === 'error') return this._error?.message ?? this._t('error');
    if (this._walletBusy) return this._t('walletWaiting');
    if (this._reconnecting) return this._t('reconnecting');
    if (this._notice) return this._notice;
    const p = this._payment;
    // A short transfer leaves the payment pending (DESIGN §3); topping it up would not complete it.
    if (p?.status === 'pending' && p.amountReceived && Number(p.amountReceived) > 0) return this._t('underpaid', `${p.amountReceived} ${p.currency}`);
    return p ? this._t(p.status) : '';
  }

  override render(): TemplateResult {
    if (this.mode !== 'button') return this._box();
    return html`<button part="trigger" class="button primary" type="button" aria-haspopup="dialog" @click=${this.open}><slot>${this._t('open')}</slot></button>
      <dialog part="dialog" aria-labelledby="title" @close=${this._onDialogClose} @keydown=${this._onDialogKey}>${this._open ? this._box() : nothing}</dialog>`;
  }

  private _onDialogClose = (): void => {
    this._open = false;
    emit(this, 'svc-close', { status: this.status });
    (this._opener ?? this.renderRoot.querySelector<HTMLElement>('[part~="trigger"]'))?.focus();
    this._opener = null;
  };

  private _onDialogKey = (event: KeyboardEvent): void => {
    const dialog = event.currentTarget as HTMLDialogElement;
    trapTab(event, dialog, (this.renderRoot as ShadowRoot).activeElement);
  };

  private _box(): TemplateResult {
    const p = this._payment;
    const final = p && p.status !== 'pending';
    const statusClass = p?.status === 'confirmed' ? 'ok' : this._view === 'error' || (final && p.status !== 'processing') ? 'bad' : '';
    const locale = this._locale;
    return html`<div part="base" class="base" role="region" aria-labelledby="title" lang=${locale} dir=${isRtl(locale) ? 'rtl' : 'ltr'}>
      <div part="header" class="header">
        ${p?.merchant.logoUrl && /^https?:/.test(p.merchant.logoUrl) ? html`<img part="logo" class="logo" src=${p.merchant.logoUrl} alt="" />` : nothing}
        <h2 part="merchant" class="merchant" id="title">${p ? this._t('payTo', p.merchant.name) : this._t('open')}</h2>
        ${this.mode === 'button' ? html`<button part="close-button" class="close" type="button" @click=${this.close}>${this._t('close')}</button>` : nothing}
      </div>
      ${p ? html`<p part="amount" class="amount">${p.amount} ${p.currency}</p>` : nothing}
      <p part="status" class="status ${statusClass}" role="status">${this._statusText()}</p>
      ${this._view === 'error' ? this._errorView() : p && this._view === 'ready' ? (final ? this._finalView(p) : this._payView(p)) : nothing}
    </div>`;
  }

  private _payView(p: PublicPayment): TemplateResult {
    const link = walletLink(p.url);
    const phone = isPhone();
    const links = html`<div class="links">
      ${browseLinks(location.href, location.origin).map((l) => html`<a part="browse-link" class="button" href=${l.href} rel="noopener">${l.name}</a>`)}
    </div>`;
    return html`<div part="qr" class="qr-box">
        ${qrSvg(p.url, `${this._t('scan')}: ${p.url}`)}
        <p class="muted">${this._t('scan')}</p>
      </div>
      <div class="actions">
        ${this._wallets.map(
          (w) => html`<button part="wallet-button" class="primary" type="button" ?disabled=${this._walletBusy != null} @click=${() => this._pay(w)}>
            ${w.icon && /^data:image\/|^https:/.test(w.icon) ? html`<img class="wallet-icon" src=${w.icon} alt="" />` : nothing}${this._t('payWith', w.name)}
          </button>`,
        )}
        ${link ? html`<a part="open-wallet" class="button ${this._wallets.length ? '' : 'primary'}" href=${link}>${this._t('openWallet')}</a>` : nothing}
        ${phone ? links : html`<details part="other-wallets"><summary>${this._t('otherWallets')}</summary>${links}</details>`}
      </div>
      ${this._field('address', p.recipient)} ${this._field('amount', p.amount)}
      <div class="footer">
        <p part="countdown" class="muted" role="timer" aria-live="off">${this._t('expiresIn', this._countdown.text)}</p>
      </div>`;
  }

  private _field(kind: 'address' | 'amount', value: string): TemplateResult {
    const id = `field-${kind}`;
    return html`<div class="field">
      <label for=${id}>${this._t(kind === 'address' ? 'address' : 'amount')}</label>
      <input part="field" id=${id} dir="ltr" readonly .value=${value} />
      <button part="copy-button" type="button" data-copy=${kind} @click=${(e: Event) => this._copy(kind, e)}>
        ${this._copied === kind ? this._t('copied') : this._t(kind === 'address' ? 'copyAddress' : 'copyAmount')}
      </button>
    </div>`;
  }

  private _finalView(p: PublicPayment): TemplateResult {
    const ok = p.status === 'confirmed' || p.status === 'processing';
    const canRestart = p.status === 'expired' && (this.sessionUrl || this.apiKey);
    return html`<div part="final" class="final ${ok ? 'ok' : 'bad'}">
      <span class="mark" aria-hidden="true">${p.status === 'confirmed' ? '✓' : p.status === 'processing' ? '…' : '✕'}</span>
      ${canRestart ? html`<button part="action" class="primary" type="button" data-action="restart" @click=${this._restart}>${this._t('startAgain')}</button>` : nothing}
      ${this.mode === 'button' && p.status === 'confirmed' ? html`<button part="action" type="button" data-action="close" @click=${this.close}>${this._t('close')}</button>` : nothing}
    </div>`;
  }

  private _errorView(): TemplateResult {
    // A refused key is a page bug, not a hiccup: retrying cannot help.
    const retry = this._error?.code !== 'secret_key_refused' && this._error?.code !== 'invalid_api_key';
    return html`<div part="final" class="final bad">
      <span class="mark" aria-hidden="true">!</span>
      <p>${this._t('error')}</p>
      ${retry ? html`<button part="action" class="primary" type="button" data-action="retry" @click=${this.start}>${this._t('retry')}</button>` : nothing}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'svc-checkout': SvcCheckout;
  }
}
