// The system Chromium and the flags every headless run here uses (Vitest's browser project, the
// explorer's end-to-end tests, tools/site-screenshots.mjs): one list, so they cannot drift.
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
