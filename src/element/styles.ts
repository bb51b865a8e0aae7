/**
 * Styles, adopted as constructable stylesheets (no style attributes, so a strict CSP is fine).
 * Merchants theme through `--svc-*` custom properties and `::part()`; the `--_*` variables are the
 * theme defaults behind them. Logical properties (inline-start/end) keep right-to-left locales right.
 */
import { css } from 'lit';

export const styles = css`
  :host {
    color-scheme: light;
    --_bg: light-dark(#ffffff, #17181c);
    --_text: light-dark(#14161a, #f2f3f5);
    --_muted: light-dark(#5b616e, #a8adb8);
    --_border: light-dark(#d9dce3, #3a3d46);
    --_field: light-dark(#f4f5f7, #23252b);
    --_accent: light-dark(#5b3fd6, #a593ff);
    --_accent-text: light-dark(#ffffff, #121212);
    --_success: light-dark(#0a7a3d, #5fd497);
    --_danger: light-dark(#b3261e, #ff8a80);
    display: block;
    max-width: var(--svc-max-width, 24rem);
    font: var(--svc-font-size, 16px) / 1.45 var(--svc-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    color: var(--svc-text, var(--_text));
  }
  /* light-dark() picks by color-scheme: fixed for light and dark, the visitor's preference for auto. */
  :host([theme='dark']) { color-scheme: dark; }
  :host([theme='auto']) { color-scheme: light dark; }
  :host([hidden]) { display: none; }
  * { box-sizing: border-box; }
  .base {
    background: var(--svc-bg, var(--_bg));
    color: var(--svc-text, var(--_text));
    border: 1px solid var(--svc-border, var(--_border));
    border-radius: var(--svc-radius, 12px);
    padding: var(--svc-padding, 1.25rem);
    display: grid;
    gap: 0.9rem;
    text-align: start;
  }
  .header { display: flex; align-items: center; gap: 0.75rem; }
  .logo { width: 2.5rem; height: 2.5rem; border-radius: 8px; object-fit: cover; flex: none; }
  .merchant { margin: 0; font-size: 1rem; font-weight: 600; overflow-wrap: anywhere; }
  .amount { margin: 0; font-size: 1.75rem; font-weight: 700; letter-spacing: -0.01em; }
  .muted { color: var(--svc-muted, var(--_muted)); font-size: 0.875rem; margin: 0; }
  .status { margin: 0; font-weight: 500; min-height: 1.45em; }
  .status.ok { color: var(--svc-success, var(--_success)); }
  .status.bad { color: var(--svc-danger, var(--_danger)); }
  .qr-box { display: grid; justify-items: center; gap: 0.4rem; }
  .qr { forced-color-adjust: none; width: var(--svc-qr-size, 14rem); height: auto; max-width: 100%; aspect-ratio: 1; border-radius: 6px; display: block; }
  .actions { display: grid; gap: 0.5rem; }
  button, .button {
    font: inherit;
    cursor: pointer;
    border-radius: var(--svc-button-radius, 8px);
    padding: 0.6rem 1rem;
    border: 1px solid var(--svc-border, var(--_border));
    background: var(--svc-field, var(--_field));
    color: inherit;
    text-align: center;
    text-decoration: none;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
  }
  .primary {
    background: var(--svc-accent, var(--_accent));
    color: var(--svc-accent-text, var(--_accent-text));
    border-color: transparent;
    font-weight: 600;
  }
  button:disabled { opacity: 0.6; cursor: progress; }
  button:focus-visible, .button:focus-visible, input:focus-visible, summary:focus-visible {
    outline: 3px solid var(--svc-focus, var(--svc-accent, var(--_accent)));
    outline-offset: 2px;
  }
  .wallet-icon { width: 1.25rem; height: 1.25rem; }
  .field { display: grid; grid-template-columns: 1fr auto; gap: 0.4rem; align-items: end; }
  .field label { grid-column: 1 / -1; font-size: 0.8rem; color: var(--svc-muted, var(--_muted)); }
  .field input {
    font: 0.85rem ui-monospace, SFMono-Regular, Menlo, monospace;
    min-width: 0;
    padding: 0.5rem;
    border: 1px solid var(--svc-border, var(--_border));
    border-radius: 6px;
    background: var(--svc-field, var(--_field));
    color: inherit;
  }
  .field button { padding: 0.45rem 0.75rem; font-size: 0.85rem; }
  details summary { cursor: pointer; color: var(--svc-muted, var(--_muted)); font-size: 0.9rem; }
  .links { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-block-start: 0.5rem; }
  .links a { flex: 1 1 auto; }
  .footer { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; }
  .final { display: grid; gap: 0.75rem; justify-items: center; text-align: center; padding-block: 1rem; }
  .final .mark { font-size: 2.5rem; line-height: 1; }
  .final.ok .mark { color: var(--svc-success, var(--_success)); }
  .final.bad .mark { color: var(--svc-danger, var(--_danger)); }
  .final p { margin: 0; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  dialog {
    padding: 0;
    border: none;
    background: transparent;
    color: inherit;
    max-width: min(26rem, calc(100vw - 1rem));
    width: 100%;
  }
  dialog::backdrop { background: rgb(0 0 0 / 0.55); }
  .close { margin-inline-start: auto; padding: 0.25rem 0.6rem; font-size: 0.875rem; }
`;
