// The explorer in real Chromium, for the end-to-end tests: the built page (dist/site, from
// `npm run build:site`, or ATTNLAB_SITE) served and opened through browser.js, one browser per
// test file; a page counts as open once the weights are drawn.
import { fileURLToPath } from 'node:url';
import { startBrowser } from './browser.js';

export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/site/', import.meta.url));
// ATTNLAB_SITE: another build of the site (e.g. one in /tmp, while dist/site is someone else's).
export const SITE = process.env.ATTNLAB_SITE ?? fileURLToPath(new URL('../../dist/site/', import.meta.url));

/** -> { url, open(query, options) -> { page, problems, requests }, close() }. */
export async function startSite(folder = SITE) {
  const browser = await startBrowser(folder);
  return {
    ...browser,
    /** A new page at `query` ('?preset=d2l', '#s=...' or a full URL), once the weights are drawn. */
    open: (query = '', { viewport = VIEWPORTS.desktop, ...options } = {}) =>
      browser.open(query, { viewport, ...options, ready: () => window.attentionLab && document.querySelector('svg[data-stage="weights"]') }),
  };
}
