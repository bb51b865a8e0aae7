#!/usr/bin/env node
// Runs before `npm test`: the browser tests need Debian's Chromium, the storage tests need
// PostgreSQL's pg_virtualenv, and the docs' shell examples are run with curl and jq. On a fresh machine of this kind (root, Debian) install them;
// elsewhere say what is missing instead of failing later with a puzzling error.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const needed = [
  { pkg: 'chromium', present: () => existsSync(process.env.CHROME_PATH ?? '/usr/bin/chromium') },
  { pkg: 'postgresql', present: () => existsSync('/usr/bin/pg_virtualenv') },
  { pkg: 'curl', present: () => existsSync('/usr/bin/curl') },
  { pkg: 'jq', present: () => existsSync('/usr/bin/jq') },
];
const missing = needed.filter((n) => !n.present()).map((n) => n.pkg);
if (missing.length === 0) process.exit(0);

const isRoot = process.getuid?.() === 0;
if (!isRoot || !existsSync('/usr/bin/apt-get')) {
  console.error(`npm test needs these system packages: ${missing.join(', ')}. Install them (e.g. sudo apt-get install -y ${missing.join(' ')}) or set CHROME_PATH.`);
  process.exit(1);
}
console.error(`Installing ${missing.join(', ')} with apt-get (first run on this machine)…`);
execSync('apt-get update -qq', { stdio: 'inherit' });
execSync(`apt-get install -y -qq --no-install-recommends ${missing.join(' ')}`, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
