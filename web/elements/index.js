// attention-lab/elements: defines <attn-figure>, <attn-heatmap>, <attn-heads> and <attn-training> on
// import (the package's only entry with side effects). Works from a plain page with no bundler and no import map:
//   <script type="module" src="node_modules/attention-lab/web/elements/index.js"></script>
// Everything it loads is reached by relative paths inside the package; the wasm core and the
// figure code load only when an <attn-figure> nears the viewport (lazy.js); <attn-training>'s
// trainer, its worker and its drawing only once it is in view (or its button is pressed).
import { AttnFigure } from './attn-figure.js';
import { AttnHeatmap } from './attn-heatmap.js';
import { AttnHeads } from './attn-heads.js';
import { AttnTraining } from './attn-training.js';

// A page that loads two copies (say, the package and a CDN build) keeps the first definitions;
// Node (server-side rendering) has no customElements and defines nothing.
for (const [name, element] of [
  ['attn-figure', AttnFigure],
  ['attn-heatmap', AttnHeatmap],
  ['attn-heads', AttnHeads],
  ['attn-training', AttnTraining],
]) {
  if (globalThis.customElements && !customElements.get(name)) customElements.define(name, element);
}

export { AttnFigure, AttnHeads, AttnHeatmap, AttnTraining };
