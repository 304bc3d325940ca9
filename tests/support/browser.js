// Chromium for the suites that drive pages (tests/e2e, tests/embed, tests/cli): Debian's
// chromium-headless-shell as tools/chromium.mjs launches it, one browser per test process, a folder
// served by startServer() on a free loopback port, and pages (each in its own context) that record
// every console error and page error, which the tests expect to be none.
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { launchChromium as launch } from '../../tools/chromium.mjs';
import { startServer } from '../../tools/static-server.mjs';

/** The browser the page suites drive: chromium-headless-shell (tools/chromium.mjs says why). */
export const launchChromium = () => launch({ shell: true });

// One Chromium per test process, started by the first file that asks: the page projects run their
// files one after another in each worker (isolate: false, vitest.config.js), and a launch per file
// (its browser, GPU and network processes) came to a few seconds of both cores between files.
// Each file's pages still live in contexts of their own; Playwright ends the browser with the process.
let shared = null;
/** The process's one Chromium (launched on first use, again if it went away). */
export async function sharedChromium() {
  const browser = await (shared ??= launchChromium());
  if (browser.isConnected()) return browser;
  shared = launchChromium();
  return shared;
}

/**
 * The problems `page` reports from now on, as strings in an array that fills as they come:
 * console errors (and warnings if asked) and uncaught page errors.
 */
export function watchProblems(page, { warnings = false } = {}) {
  const problems = [];
  const kinds = warnings ? ['error', 'warning'] : ['error'];
  page.on('console', (m) => kinds.includes(m.type()) && problems.push(`console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

/**
 * A context opened in a test closes when the test ends (-> true): left open, it kept its renderer,
 * timers, animation frames and workers (a training loop, a playing Generate panel) running beside
 * every later test in the process's one Chromium. -> false outside a test (a hook): then the caller
 * closes it.
 */
export function closedWhenTestEnds(context) {
  try {
    onTestFinished(() => context.close());
    return true;
  } catch {
    return false; // not inside a test
  }
}

/**
 * One page for the tests of the enclosing describe that check one state: `open()` (a site's or
 * pages' open) runs once before them, and the page's context closes after them (opened in a hook,
 * it is not closed when a test ends). Tests that only read the page go first. -> a function
 * returning what open() gave: { page, problems, requests }.
 */
export function sharedPage(open) {
  let opened = null;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.page.context().close();
  });
  return () => opened;
}

/**
 * Serves `root` in the process's Chromium. -> { url, open(path, options) -> { page, problems, requests }, close() }; open's options: viewport, colorScheme, reducedMotion ('reduce' | 'no-preference'),
 * locale (navigator.languages' first, default en-US), permissions (granted for the server's origin) and ready (a function run in the page,
 * awaited until it returns something truthy).
 */
export async function startBrowser(root) {
  const server = await startServer(root);
  const browser = await sharedChromium();
  const contexts = new Set();

  async function open(path, { viewport, colorScheme = 'light', reducedMotion = 'no-preference', locale = 'en-US', permissions = [], ready = null } = {}) {
    const context = await browser.newContext({ viewport, colorScheme, reducedMotion, locale, deviceScaleFactor: 1, acceptDownloads: true });
    contexts.add(context);
    context.on('close', () => contexts.delete(context));
    closedWhenTestEnds(context);
    if (permissions.length) await context.grantPermissions(permissions, { origin: new URL(server.url).origin });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(new URL(path, server.url).href);
    if (ready) await page.waitForFunction(ready);
    return { page, problems, requests };
  }

  return {
    url: server.url,
    open,
    async close() {
      for (const context of contexts) await context.close();
      contexts.clear();
      await server.close();
    },
  };
}
