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

const plugins = [
  tsFromJs,
  nodeResolve({ browser: true, exportConditions: ['browser', 'production', 'import', 'default'] }),
  commonjs(),
  esbuild({ target: 'es2021', tsconfig: 'tsconfig.base.json' }),
  terser({ ecma: 2021, module: true, compress: { passes: 2 }, format: { comments: false } }),
];

export default {
  input: 'src/element/index.ts',
  output: [
    { file: 'dist/svc-checkout.mjs', format: 'es' },
    { file: 'dist/svc-checkout.js', format: 'iife', name: 'SvcCheckout' },
  ],
  plugins,
  onwarn(warning, warn) {
    // Lit's sources use `this` at module top level in a way rollup flags; harmless.
    if (warning.code === 'THIS_IS_UNDEFINED') return;
    warn(warning);
  },
};
