#!/usr/bin/env node
// Prints the Subresource Integrity hash of the built element, for
//   <script src="…/svc-checkout.js" integrity="sha384-…" crossorigin="anonymous"></script>
// Usage: npm run sri                       → sha384-… of dist/svc-checkout.js
//        node scripts/sri.mjs FILE [FILE…]  → "sha384-…  FILE" per file
// The hash changes with every build: print it from the exact file you publish.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const files = process.argv.slice(2);

function sri(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

function read(file) {
  try {
    return readFileSync(file);
  } catch (err) {
    console.error(`sri: cannot read ${file} (${err.code ?? err.message})${files.length ? '' : ': run `npm run build` first'}`);
    process.exit(1);
  }
}

if (files.length === 0) {
  console.log(sri(read(`${root}dist/svc-checkout.js`)));
} else {
  for (const file of files) console.log(`${sri(read(file))}  ${file}`);
}
