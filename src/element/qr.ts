/**
 * The QR code of the Solana Pay URL as SVG. Only the encoder core of `qrcode` is bundled (its browser entry
 * pulls canvas and PNG renderers); the modules become one <path> bound through Lit, so nothing is parsed
 * from a string and nothing is evaluated.
 */
import { html } from 'lit';
import type { TemplateResult } from 'lit';
// CommonJS module, bundled by rollup's commonjs plugin.
import QRCodeCore from 'qrcode/lib/core/qrcode.js';

/** Light modules around the code, in modules. The QR specification asks for four. */
export const QUIET_ZONE = 4;

export interface QrMatrix {
  size: number;
  isDark(row: number, col: number): boolean;
}

export function qrMatrix(text: string): QrMatrix {
  const { modules } = QRCodeCore.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, isDark: (r, c) => Boolean(modules.get(r, c)) };
}

/** SVG path data: one rectangle per horizontal run of dark modules, offset by the quiet zone. */
export function qrPath(m: QrMatrix): string {
  let d = '';
  for (let r = 0; r < m.size; r++) {
    for (let c = 0; c < m.size; ) {
      if (!m.isDark(r, c)) {
        c++;
        continue;
      }
      let run = 1;
      while (c + run < m.size && m.isDark(r, c + run)) run++;
      d += `M${c + QUIET_ZONE} ${r + QUIET_ZONE}h${run}v1h-${run}z`;
      c += run;
    }
  }
  return d;
}

/**
 * Dark modules on a light ground whatever the theme: phones' scanners expect that contrast.
 * The colours are SVG presentation attributes, not style attributes, so a strict CSP allows them.
 */
export function qrSvg(text: string, label: string): TemplateResult {
  const m = qrMatrix(text);
  const n = m.size + 2 * QUIET_ZONE;
  return html`<svg part="qr-code" class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" role="img" aria-label=${label} shape-rendering="crispEdges"><rect width=${n} height=${n} fill="#ffffff"/><path d=${qrPath(m)} fill="#000000"/></svg>`;
}
