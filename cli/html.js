// One self-contained HTML file around a static SVG figure: no external script, style, font or
// image, so it opens from file:// (an e-mail attachment, a notebook's folder) with no network. A
// small inline script shows the exact value of the cell under the pointer.
import { el, escape } from './markup.js';
import { INK } from './palette.js';

const STYLE = `body{margin:16px;font:14px ui-sans-serif,system-ui,sans-serif;color:${INK.text};background:${INK.cell}}
[data-value]:hover{stroke:${INK.text};stroke-width:1.5;outline:none}
#readout{min-height:1.4em;font-variant-numeric:tabular-nums}`;

// Hovering sets the readout to the cell's layer, head, row, column and exact value.
const SCRIPT = `const out=document.getElementById('readout');
document.addEventListener('pointerover',(e)=>{const c=e.target.closest('[data-value]');if(!c)return;
const p=c.closest('[data-layer]'),i=+c.parentNode.dataset.row,j=+c.dataset.col;out.dataset.value=c.dataset.value;
out.textContent=(p?'layer '+p.dataset.layer+', head '+p.dataset.head+', ':'')+'query '+(i+1)+', key '+(j+1)+': '+c.dataset.value;});`;

/** -> the chunks of a page showing the SVG of `svgChunks` with `title`, and `caption` (the file and tensor it shows) under it. */
export function standalonePage(svgChunks, { title, caption }) {
  const head = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<style>${STYLE}</style></head>
<body>
`;
  const tail = `
${el('p', { id: 'readout', 'aria-live': 'polite' }, 'Point at a cell to read its exact value.')}
${el('p', {}, escape(caption))}
<script>${SCRIPT}</script>
</body></html>
`;
  return [head, ...svgChunks, tail]; // an array literal: no call argument per chunk
}
