// The system Chromium and the flags every headless run here uses: one list, so they cannot drift,
// and launchChromium(), the one way the tests and tools start it. Two builds of the same Chromium
// version, both Debian's:
//   CHROMIUM_PATH        the browser users run (its headless mode shares the whole browser's code):
//                        Vitest's browser project, where the library computes (and traps a module
//                        on purpose, which kills the shell's renderer: docs/toolchain.md).
//   HEADLESS_SHELL_PATH  chromium-headless-shell: the same Blink, V8 and Skia without the browser
//                        around them (what Playwright itself runs for headless tests), for the
//                        suites that drive pages (tests/e2e, tests/embed, the CLI's HTML page),
//                        which run faster without the browser's own start-up and services.
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox', // CI and developers run as root
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking', // the network is closed: no background connections to time out
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The system Chromium, launched with these flags (playwright-core, loaded on first use).
 * shell: true for chromium-headless-shell (tools/setup.sh installs both).
 */
export async function launchChromium({ shell = false } = {}) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: shell ? HEADLESS_SHELL_PATH : CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
