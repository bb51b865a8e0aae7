// Browser tests run in Debian's Chromium (no browser download on these machines).
// They import the rollup-built bundle from dist/, which is what users load: run `npm run build` first.
import { chromeLauncher } from '@web/test-runner-chrome';

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

export default {
  files: ['test/element/**/*.test.js'],
  nodeResolve: true,
  concurrency: 1,
  testFramework: { config: { timeout: 20000 } },
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
        ],
      },
    }),
  ],
};
