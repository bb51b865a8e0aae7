// tsc does not keep the executable bit; the package's bins need it to run from a shell.
import { chmodSync, existsSync, readFileSync } from 'node:fs';
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
for (const file of Object.values(pkg.bin)) {
  const url = new URL(`../${file}`, import.meta.url);
  if (existsSync(url)) chmodSync(url, 0o755);
  else console.warn(`chmod-bins: ${file} was not built`);
}
