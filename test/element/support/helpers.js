// Browser-side helpers shared by the element tests.
import { executeServerCommand } from '@web/test-runner-commands';

/** Runs a harness command in node (see harness.mjs). */
export const server = (command, payload) => executeServerCommand(command, payload);

/** Loads a classic script (UMD libraries such as jsQR and axe-core expose a global). */
export function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = () => resolve(s);
    s.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(s);
  });
}

export async function waitFor(check, { timeout = 15000, interval = 50, message = 'condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${message}`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Collects every event of the given types fired on `target`. */
export function recordEvents(target, types) {
  const log = [];
  for (const t of types) target.addEventListener(t, (e) => log.push({ type: t, detail: e.detail, event: e }));
  return log;
}

export const part = (el, name) => el.shadowRoot.querySelector(`[part~="${name}"]`);
export const parts = (el, name) => [...el.shadowRoot.querySelectorAll(`[part~="${name}"]`)];

/** Renders the element's QR SVG to a canvas and decodes it with jsQR, as a phone camera would read it. */
export async function decodeQr(el, scale = 6) {
  if (!window.jsQR) await loadScript('/node_modules/jsqr/dist/jsQR.js');
  const svg = part(el, 'qr-code');
  if (!svg) throw new Error('no QR code rendered');
  const size = svg.viewBox.baseVal.width * scale;
  const xml = new XMLSerializer().serializeToString(svg);
  const img = new Image(size, size);
  img.src = URL.createObjectURL(new Blob([xml], { type: 'image/svg+xml' }));
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(img, 0, 0, size, size);
  URL.revokeObjectURL(img.src);
  const data = ctx.getImageData(0, 0, size, size);
  const code = window.jsQR(data.data, size, size, { inversionAttempts: 'dontInvert' });
  return code?.data ?? null;
}

/** axe-core over the element (shadow DOM included); returns the violations. */
export async function axeViolations(el) {
  if (!window.axe) await loadScript('/node_modules/axe-core/axe.min.js');
  const result = await window.axe.run(el, { resultTypes: ['violations'] });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Mounts an element from attributes; returns it once it has rendered. */
export async function mount(attrs = {}, parent = document.body) {
  const el = document.createElement('svc-checkout');
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, v);
  parent.append(el);
  await el.updateComplete;
  return el;
}

/** Mounts an element on a fresh payment of the real gateway. */
export async function mountPayment(attrs = {}, sessionOptions = {}) {
  const s = await server('svc-create-session', sessionOptions);
  const el = await mount({ 'payment-id': s.paymentId, 'payment-token': s.paymentToken, 'base-url': s.baseUrl, ...attrs });
  await waitFor(() => el.payment, { message: 'the payment' });
  await el.updateComplete;
  return { el, session: s };
}

export function cleanup() {
  for (const el of document.querySelectorAll('svc-checkout')) el.remove();
}
