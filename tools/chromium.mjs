// The system Chromium and the flags every headless run here uses (Vitest's browser project, the
// explorer's end-to-end tests, tools/site-screenshots.mjs): one list, so they cannot drift, and
// launchChromium(), the one way the tests and tools start it.
export const CHROMIUM_PATH = '/usr/bin/chromium';

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

/** The system Chromium, launched with these flags (playwright-core, loaded on first use). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
