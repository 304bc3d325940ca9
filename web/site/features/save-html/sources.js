// The package files standaloneHtml() packs into a saved figure, as this page's build holds them:
// Vite moved and bundled the sources, so the default reader (files beside the module) finds
// nothing here. Each source comes as text from its own lazy chunk (fetched only when a figure is
// saved); the SIMD core as the asset Vite copied.
//   readPackageFile('web/figures/dom.js') -> Promise<string | Uint8Array>

const ROOT = '../../../'; // web/, from web/site/features/save-html/
const SOURCES = import.meta.glob(
  [
    '../../../src/**/*.js',
    '../../../model/**/*.js',
    '../../../figures/**/*.js',
    '../../../elements/**/*.js',
    '../../../io/**/*.js',
    '../../../i18n/**/*.js',
    '../../../wasm/attention-simd.js',
    '../../../figures/figures.css',
  ],
  { query: '?raw', import: 'default' },
);
const SIMD_WASM = new URL('../../../wasm/attention-simd.wasm', import.meta.url).href;

export async function readPackageFile(path) {
  if (path === 'web/wasm/attention-simd.wasm') {
    const response = await fetch(SIMD_WASM);
    if (!response.ok) throw new Error(`Save as HTML: the SIMD core could not be read (HTTP ${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  }
  const load = typeof path === 'string' && path.startsWith('web/') ? SOURCES[ROOT + path.slice('web/'.length)] : undefined;
  if (!load) throw new Error(`Save as HTML: ${path} is not in this page's build`);
  return load();
}
