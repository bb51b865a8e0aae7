// CommonJS build of the server SDK, for merchants whose backend uses require().
// tsc already emits the ESM build and its .d.ts into dist/; this adds:
//   dist/server/index.cjs, dist/server/express/index.cjs   (esbuild bundles of src/server + src/core only)
//   dist/{server,core}/**/*.d.cts                          (copies of the .d.ts with .cjs specifiers)
// The express entry requires ../index.cjs instead of bundling its own copy of the SDK, so error
// classes are the same objects in both entries (instanceof works across them).
import { build } from 'esbuild';
import { readdirSync, readFileSync, writeFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Only src/server and src/core may end up in the bundle; anything else is a mistake, so fail loudly. */
const onlyServerAndCore = {
  name: 'only-server-and-core',
  setup(b) {
    b.onLoad({ filter: /.*/ }, (args) => {
      const rel = relative(src, args.path);
      if (rel.startsWith('..') || !(rel.startsWith('server') || rel.startsWith('core'))) {
        throw new Error(`build-server-cjs: ${relative(root, args.path)} is not in src/server or src/core`);
      }
      return undefined;
    });
  },
};

/** In the express entry, SDK modules outside express/ come from ../index.cjs. */
const shareSdkFromIndex = {
  name: 'share-sdk-from-index',
  setup(b) {
    b.onResolve({ filter: /^\.\.\// }, (args) => {
      const importer = relative(src, args.importer);
      if (!importer.startsWith(join('server', 'express'))) return undefined;
      const target = relative(src, resolve(dirname(args.importer), args.path));
      if (target.startsWith(join('server', 'express'))) return undefined;
      return { path: '../index.cjs', external: true };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: [join(src, 'server', 'index.ts')],
  outfile: join(dist, 'server', 'index.cjs'),
  plugins: [onlyServerAndCore],
});
await build({
  ...common,
  entryPoints: [join(src, 'server', 'express', 'index.ts')],
  outfile: join(dist, 'server', 'express', 'index.cjs'),
  plugins: [shareSdkFromIndex, onlyServerAndCore],
});

// Typings for require(): the same declarations, with relative specifiers pointing at .cjs so
// TypeScript reads them as CommonJS (.d.cts) rather than as the ESM .d.ts.
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}
let count = 0;
for (const part of ['server', 'core']) {
  const dir = join(dist, part);
  if (!existsSync(dir)) throw new Error(`build-server-cjs: ${relative(root, dir)} is missing; run tsc first`);
  for (const file of walk(dir).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8').replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.js(['"])/g, '$1$2.cjs$3');
    writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), text);
    count++;
  }
}
console.log(`build-server-cjs: ${pkg.name}@${pkg.version} server CJS bundles and ${count} .d.cts files`);
