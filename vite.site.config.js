// Builds the explorer page (web/site/) into dist/site/: npm run build:site.
// base './' makes every URL in the output relative, so dist/site/ works from any folder of any
// static server (or a GitHub Pages project path). The wasm files are reached by the API's own
// new URL('../wasm/...', import.meta.url) literals, which Vite copies as assets.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./web/site'),
  base: './',
  publicDir: false,
  build: {
    outDir: here('./dist/site'),
    emptyOutDir: true,
    target: 'es2022',
    // Never inline the .wasm (or fonts) as base64 into JS: they stay separate, cacheable files.
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    // The explorer, the iframe embed and the embedding guide; and the custom elements as
    // elements.js at a fixed URL, for the script tag of the embed code (issue 5).
    rolldownOptions: {
      input: {
        index: here('./web/site/index.html'),
        embed: here('./web/site/embed.html'),
        guide: here('./web/site/guide.html'),
        elements: here('./web/elements/index.js'),
      },
      output: { entryFileNames: (chunk) => (chunk.name === 'elements' ? 'elements.js' : 'assets/[name]-[hash].js') },
    },
  },
  worker: { format: 'es' },
  server: { fs: { allow: [here('.')] } },
});
