// Vitest: the same test files run in two projects.
//   node     environment node: web/src/index.js reads the .wasm bytes itself.
//   browser  real Chromium (Debian's /usr/bin/chromium, driven by playwright-core; never downloaded),
//            the .wasm fetched over Vite's dev server from web/wasm/ (inside the project root).
// Data files (golden.json, the ONNX conformance vectors) are imported through Vite (JSON imports,
// import.meta.glob), never read with fs, so one file works in both environments. The shared folder
// is ../shared beside the repository (ATTNLAB_SHARED overrides it); tests import it as '@shared/...'.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';

const root = path.dirname(fileURLToPath(import.meta.url));
const shared = path.resolve(process.env.ATTNLAB_SHARED || path.join(root, '..', 'shared'));

const chromiumArgs = [
  '--headless',
  '--no-sandbox',                      // CI and developers run as root
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',   // the network is closed: no background connections to time out
  '--disable-component-update',
  '--disable-sync',
];

const common = {
  resolve: { alias: { '@shared': shared } },
  server: { fs: { allow: [root, shared] } },
};

export default defineConfig({
  ...common,
  test: {
    include: ['tests/js/**/*.test.js'],
    // Data-heavy suites (76 ONNX cases x 2 backends) are quick per case; wasm instantiation is the slow part.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        ...common,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/js/**/*.test.js'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...common,
        test: {
          name: 'browser',
          include: ['tests/js/**/*.test.js'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
