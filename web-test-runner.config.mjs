// Browser tests run in Debian's Chromium (no browser download on these machines).
// They import the rollup-built bundle from dist/, which is what users load: run `npm run build` first.
// The REAL gateway and localnet are started from dist/ in a child process (test/element/support/harness*.mjs); tests reach
// them through executeServerCommand and the test server's middleware (see that file).
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import * as harness from './test/element/support/harness-client.mjs';

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

export default {
  files: ['test/element/**/*.test.js'],
  // Test helpers (@open-wc/testing pulls in Lit) resolve to production builds, like the bundle.
  nodeResolve: { exportConditions: ['production'] },
  concurrency: 1,
  testFramework: { config: { timeout: 20000 } },
  middleware: [harness.middleware],
  plugins: [
    {
      name: 'svc-harness',
      serverStart: () => harness.start(),
      serverStop: () => harness.stop(),
    },
    harness.commandPlugin,
  ],
  reporters: [defaultReporter(), summaryReporter()],
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
