#!/usr/bin/env node
// Runs node's test runner over every *.test.ts under test/ (browser tests under test/element excluded).
// Node 20's --test does not expand globs or pick up .ts files, hence this walker.
// Usage: node scripts/test-node.mjs [path-prefix ...]   e.g. test/core test/localnet/rpc.test.ts
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const BROWSER_DIR = join('test', 'element');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

const filters = process.argv.slice(2);
const files = walk(join(root, 'test'))
  .map((f) => relative(root, f))
  .filter((f) => f.endsWith('.test.ts') && !f.startsWith(BROWSER_DIR))
  .filter((f) => filters.length === 0 || filters.some((p) => f.startsWith(p.replace(/^\.\//, ''))))
  .sort();

if (files.length === 0) {
  console.error('test-node: no test files matched', filters);
  process.exit(1);
}

const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  cwd: root,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
