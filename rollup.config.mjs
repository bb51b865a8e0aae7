// Builds the browser bundles of <svc-checkout>:
//   dist/svc-checkout.js  — a classic script (IIFE): one <script src> tag defines the element
//   dist/svc-checkout.mjs — the same as an ES module, for bundlers and <script type="module">
// Lit is resolved through its default export condition, which is its production build.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import nodeResolve from '@rollup/plugin-node-resolve';
import commonjs from '@rollup/plugin-commonjs';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';

/** Our sources import './x.js' (NodeNext style); point those at the .ts file. */
const tsFromJs = {
  name: 'ts-from-js',
  resolveId(source, importer) {
    if (!importer || !source.startsWith('.') || !source.endsWith('.js')) return null;
    const candidate = resolve(dirname(importer), source.slice(0, -3) + '.ts');
    return existsSync(candidate) ? candidate : null;
  },
};

/**
 * qrcode's core requires './segments', whose optimal-segmentation search (dijkstrajs, kanji tables, mode
 * regexes) weighs about 4 KB gzip; the element only ever encodes one byte-mode segment, so
 * src/element/qr-byte-segments.cjs and qr-no-regex.cjs stand in for './segments' and './regex'.
 */
const QR_CORE = /qrcode[\\/]lib[\\/]core[\\/]/;
const qrByteMode = {
  name: 'qr-byte-mode',
  resolveId(source, importer) {
    if (!importer || !QR_CORE.test(importer)) return null;
    if (source === './segments') return resolve('src/element/qr-byte-segments.cjs');
    if (source === './regex') return resolve('src/element/qr-no-regex.cjs');
    return null;
  },
};

/**
 * Classic-script build only: keeps English in i18n.ts and ships the other languages as locales/<lang>.json
 * next to the script, fetched on first use (see i18n.ts). Keeps svc-checkout.js under its 20 KB budget.
 */
const lazyLocales = {
  name: 'lazy-locales',
  transform(code, id) {
    if (!id.endsWith('/src/element/i18n.ts')) return null;
    const keys = [...code.match(/const KEYS = \[([^\]]*)\]/)[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
    const out = code
      .replace(/\n {2}(\w\w): '(.*)',/g, (row, lang, text) => {
        if (lang === 'en') return row;
        const parts = text.split('|');
        const json = Object.fromEntries(keys.map((k, i) => [k, parts[i]]));
        this.emitFile({ type: 'asset', fileName: `locales/${lang}.json`, source: JSON.stringify(json, null, 1) + '\n' });
        return '';
      })
      .replace('const LAZY = false;', 'const LAZY = true;');
    return { code: out, map: null };
  },
};

/** Collapses the whitespace of css`...` templates (terser leaves template text alone). */
const minifyCss = {
  name: 'minify-css',
  transform(code, id) {
    if (!id.endsWith('/src/element/styles.ts')) return null;
    const out = code.replace(/css`([^`]*)`/g, (_m, body) =>
      'css`' + body.replace(/\/\*[^]*?\*\//g, '').replace(/\s+/g, ' ').replace(/\s*([{};:,>])\s*/g, '$1').replace(/;}/g, '}').trim() + '`',
    );
    return { code: out, map: null };
  },
};

/** Drops the line breaks and indentation inside html`...` templates of the element (all tags sit on one line). */
const minifyTemplates = {
  name: 'minify-templates',
  transform(code, id) {
    if (!/\/src\/element\/(svc-checkout|qr)\.ts$/.test(id)) return null;
    return { code: code.replace(/html`[^`]*`/g, (t) => t.replace(/\s*\n\s*/g, '')), map: null };
  },
};

const plugins = (extra = []) => [
  tsFromJs,
  qrByteMode,
  minifyCss,
  minifyTemplates,
  ...extra,
  nodeResolve({ browser: true, exportConditions: ['browser', 'production', 'import', 'default'] }),
  commonjs(),
  esbuild({ target: 'es2021', tsconfig: 'tsconfig.base.json' }),
  // Our private members are spelled `_name` (Lit's own use `_$`): safe to shorten across the bundle.
  terser({ ecma: 2021, module: true, compress: { passes: 2 }, mangle: { properties: { regex: /^_[a-z]/ } }, format: { comments: false } }),
];

function onwarn(warning, warn) {
  // Lit's sources use `this` at module top level in a way rollup flags; harmless.
  if (warning.code === 'THIS_IS_UNDEFINED') return;
  warn(warning);
}

export default [
  { input: 'src/element/index.ts', output: { file: 'dist/svc-checkout.mjs', format: 'es' }, plugins: plugins(), onwarn },
  {
    input: 'src/element/index.ts',
    output: { file: 'dist/svc-checkout.js', format: 'iife', name: 'SvcCheckout' },
    plugins: plugins([lazyLocales]),
    onwarn,
  },
];
