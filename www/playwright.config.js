// End-to-end tests in Debian's Chromium (/usr/bin/chromium), never a downloaded browser.
// Two projects: `dev` runs every spec against the Vite dev server; `dist` runs e2e/dist.spec.js
// once against the static build (`make dist` -> ../dist) served under a sub-path by
// e2e/serve-dist.mjs, as a static host would serve it.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT || 8391);
const distPort = Number(process.env.E2E_DIST_PORT || 8392);
const distBase = '/sub/path/';

export default defineConfig({
  testDir: './e2e',
  outputDir: '../target/e2e/results',
  timeout: 30_000,
  workers: 1,
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 720 },
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'dev', testIgnore: /dist\.spec\.js$/, use: { baseURL: `http://127.0.0.1:${port}` } },
    { name: 'dist', testMatch: /dist\.spec\.js$/, use: { baseURL: `http://127.0.0.1:${distPort}${distBase}` } },
  ],
  webServer: [
    {
      command: `npx vite --port ${port} --strictPort`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(port) },
    },
    {
      // Waits for the port, not a URL: the dev project's specs run without a dist/ built.
      command: `node e2e/serve-dist.mjs ${distPort} ${distBase}`,
      port: distPort,
      reuseExistingServer: false,
      timeout: 10_000,
    },
  ],
});
