#!/usr/bin/env node
// Prints the gzip size of the element bundles and fails when the classic script is over its budget
// (issue 5: dist/svc-checkout.js ≤ 20 KB gzip, counted here as 20,000 bytes). Run after `npm run build:element`.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET = 20_000;
const dist = new URL('../dist/', import.meta.url);
const files = ['svc-checkout.js', 'svc-checkout.mjs'];
if (existsSync(new URL('locales/', dist))) files.push(...readdirSync(new URL('locales/', dist)).map((f) => `locales/${f}`));

let failed = false;
for (const name of files) {
  const url = new URL(name, dist);
  if (!existsSync(url)) {
    console.error(`size-check: dist/${name} is missing; run npm run build:element first.`);
    process.exit(1);
  }
  const raw = readFileSync(url);
  const gz = gzipSync(raw, { level: 9 }).length;
  const over = name === 'svc-checkout.js' && gz > BUDGET;
  failed ||= over;
  console.log(`${name.padEnd(24)} ${String(raw.length).padStart(7)} B  ${String(gz).padStart(6)} B gzip${name === 'svc-checkout.js' ? `  (budget ${BUDGET} B${over ? ', OVER' : ', ok'})` : ''}`);
}
process.exit(failed ? 1 : 0);
