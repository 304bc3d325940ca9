// One self-contained HTML file around a static SVG figure: no external script, style, font or
// image, so it opens from file:// (an e-mail attachment, a notebook's folder) with no network. A
// small inline script shows the exact value of the cell under the pointer.
import { showControls } from './controls.js';
import { shownTokens } from './figure-svg.js';
import { el, escape } from './markup.js';
import { INK } from './palette.js';

const STYLE = `body{margin:16px;font:14px ui-sans-serif,system-ui,sans-serif;color:${INK.text};background:${INK.cell}}
[data-value]:hover{stroke:${INK.text};stroke-width:1.5;outline:none}
#readout{min-height:1.4em;font-variant-numeric:tabular-nums}`;

// Hovering sets the readout to the cell's layer, head, row, column and exact value, in the words
// of figure-svg.js's cellPlace() and web/figures' heads(): "layer 1, head 3: query a (20) → key
// b (17): 0.25", positions from 0, each with its token when the axis has tokens (#tokens).
const SCRIPT = `const out=document.getElementById('readout'),t=JSON.parse(document.getElementById('tokens').textContent);
const at=(list,k)=>(list?list[k]+' ':'')+'('+k+')';
document.addEventListener('pointerover',(e)=>{const c=e.target.closest('[data-value]');if(!c)return;
const p=c.closest('[data-layer]'),i=+c.parentNode.dataset.row,j=+c.dataset.col;out.dataset.value=c.dataset.value;
out.textContent=(p?'layer '+p.dataset.layer+', head '+p.dataset.head+': ':'')+'query '+at(t.rows,i)+' \u2192 key '+at(t.cols,j)+': '+c.dataset.value;});`;

/** The axes' tokens as JSON inside a <script>: as drawn, controls as pictures, no "<" to end the element. */
function tokensJson({ rows, cols }) {
  const shown = (tokens) => shownTokens(tokens)?.map(showControls) ?? null;
  return JSON.stringify({ rows: shown(rows), cols: shown(cols) }).replace(/</g, '\\u003c');
}

/**
 * -> the chunks of a page showing the SVG of `svgChunks` with `title`, the readout naming the
 * hovered cell's `tokens` ({ rows, cols }, each null for positions only), and `caption` (the file
 * and tensor it shows) under it.
 */
export function standalonePage(svgChunks, { title, tokens, caption }) {
  const head = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<style>${STYLE}</style></head>
<body>
`;
  const tail = `
${el('p', { id: 'readout', 'aria-live': 'polite' }, 'Point at a cell to read its exact value.')}
${el('p', {}, escape(caption))}
<script type="application/json" id="tokens">${tokensJson(tokens)}</script>
<script>${SCRIPT}</script>
</body></html>
`;
  return [head, ...svgChunks, tail]; // an array literal: no call argument per chunk
}
