// Attention weights drawn as pixels on a canvas, one pixel per (query, key), for sizes where one
// SVG cell per weight is too many (T > 64: 4,096 cells; a 12 x 12 grid of heads at T = 128 is 2.4
// million). The colour is figures.css's sequential scale on [0, 1] (paper to --attn-weight's
// default, or the page's theme: canvas-theme.js); a page scales the canvas with CSS (image-rendering: pixelated keeps cells sharp).
//
// canvasHeatmap(weights (Tq, Tk), options) -> HTMLDivElement[data-stage=weights]: a scrolling
// canvas with a readout [data-role=readout] that shows the exact value under the pointer or under
// the keyboard's cursor (the canvas is focusable; arrows, Home/End and PageUp/PageDown move the
// cursor), with its data-row, data-col, data-value as the SVG cells carry them. Options: title,
// rowLabels, colLabels, cellSize (CSS px per weight, default fits 640 px, at least 1), highlight
// (token indices), colorScale ('weights' or 'signed', as heatmap()), masked (per weight, 1 =
// masked: drawn in the masked background), note (a caption under the map, [data-role=canvas-note],
// which also describes the canvas to assistive technology), lang ('en' or 'zh-CN': its words).
import { toTensor } from '../src/to-tensor.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { colorScale } from './color.js';
import { fullValue } from './format.js';
import { NAN_GREY } from './palette.js';
import { canvasColours, onThemeChange } from './canvas-theme.js';

const hexRgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
const NAN_RGB = hexRgb(NAN_GREY);
const FADED = 0.22; // the share of its colour a weight outside highlighted rows and columns keeps

/**
 * Paints the (R, C) block of `data` at `offset` into `canvas` (resized to C x R pixels).
 * highlight: a Set of token indices; weights in none of their rows or columns are faded.
 * scale: a color.js scale ('weights': [0, 1] in --attn-weight; 'signed': --attn-pos and
 * --attn-neg by magnitude). masked: per weight of the block, 1 = masked. The colours are the
 * page's for this canvas (canvas-theme.js), painted again when the canvas joins a page or the theme changes.
 */
export function paintWeights(canvas, data, offset, R, C, highlight, { scale, masked = null }) {
  onThemeChange(canvas, () => paintWeights(canvas, data, offset, R, C, highlight, { scale, masked }));
  const colours = canvasColours(canvas);
  if (canvas.width !== C) canvas.width = C;
  if (canvas.height !== R) canvas.height = R;
  const context = canvas.getContext('2d');
  const image = context.createImageData(C, R);
  const px = image.data;
  const signed = scale.kind === 'signed';
  const some = highlight && highlight.size > 0;
  for (let i = 0; i < R; i++) {
    const rowOn = !some || highlight.has(i);
    for (let j = 0; j < C; j++) {
      const v = data[offset + i * C + j];
      const p = 4 * (i * C + j);
      px[p + 3] = 255;
      if (masked && masked[i * C + j]) {
        [px[p], px[p + 1], px[p + 2]] = colours.masked;
        continue;
      }
      if (v !== v) {
        // NaN: grey, never mistaken for a weight
        [px[p], px[p + 1], px[p + 2]] = NAN_RGB;
        continue;
      }
      let t = scale.t(v);
      if (!rowOn && !highlight.has(j)) t *= FADED;
      [px[p], px[p + 1], px[p + 2]] = colours.mix(signed && v < 0 ? 'neg' : signed ? 'pos' : 'seq', t);
    }
  }
  context.putImageData(image, 0, 0);
}

/** The (row, col) of a pointer event on a canvas showing R x C weights, or null outside it. */
export function cellAt(event, canvas, R, C) {
  const box = canvas.getBoundingClientRect();
  const i = Math.floor(((event.clientY - box.top) / box.height) * R);
  const j = Math.floor(((event.clientX - box.left) / box.width) * C);
  return i >= 0 && i < R && j >= 0 && j < C ? [i, j] : null;
}

/** Sets the readout to one weight in `lang`: its text and data-row/data-col/data-value. */
export function showValue(readout, where, i, j, value, rowLabels, colLabels, lang = 'en') {
  readout.dataset.row = i;
  readout.dataset.col = j;
  readout.dataset.value = fullValue(value);
  const [row, col] = [rowLabels ? `${rowLabels[i]} ` : '', colLabels ? `${colLabels[j]} ` : ''];
  readout.textContent = figureMessage(lang, 'figure.readout', { where, row, i, col, j, value: fullValue(value) });
}

/** The keys that move the keyboard's cursor over an R x C map: key -> (i, j, page) -> [i, j]. */
const MOVES = {
  ArrowUp: (i, j) => [i - 1, j],
  ArrowDown: (i, j) => [i + 1, j],
  ArrowLeft: (i, j) => [i, j - 1],
  ArrowRight: (i, j) => [i, j + 1],
  PageUp: (i, j, page) => [i - page, j],
  PageDown: (i, j, page) => [i + page, j],
  Home: (i) => [i, 0],
  End: (i, j, page, C) => [i, C - 1],
};

let notes = 0; // ids of captions, unique in a document

export function canvasHeatmap(input, options = {}) {
  const weights = toTensor(input, 'canvasHeatmap: weights');
  if (weights.shape.length !== 2) throw new RangeError(`canvasHeatmap: weights must have shape (Tq, Tk), got [${weights.shape.join(', ')}]`);
  const [R, C] = weights.shape;
  const lang = langOption(options.lang, 'canvasHeatmap');
  const say = (key, params) => figureMessage(lang, key, params);
  const { title = say('figure.heatmap.title'), rowLabels = null, colLabels = null, highlight = null, masked = null, note = null } = options;
  const kind = options.colorScale ?? 'weights';
  if (kind !== 'weights' && kind !== 'signed') throw new TypeError(`canvasHeatmap: colorScale must be 'weights' or 'signed', got ${JSON.stringify(kind)}`);
  const scale = colorScale(kind, weights.data, (k) => !(masked && masked[k]));
  const cellSize = options.cellSize ?? Math.max(1, Math.floor(640 / Math.max(R, C)));
  const canvas = document.createElement('canvas');
  canvas.className = 'attn-canvas';
  canvas.style.cssText = `width:${C * cellSize}px;height:${R * cellSize}px;image-rendering:pixelated;display:block`;
  // A widget of its own keys (the arrows move the cursor), named like the SVG heatmap's grid.
  canvas.setAttribute('role', 'application');
  canvas.setAttribute('aria-roledescription', say('figure.canvas.role'));
  canvas.tabIndex = 0;
  canvas.setAttribute('aria-label', `${title ? `${title}: ` : ''}${say('figure.canvas.size', { rows: R, cols: C })}`);
  paintWeights(canvas, weights.data, 0, R, C, highlight, { scale, masked });
  const cursor = document.createElement('div');
  cursor.className = 'attn-canvas-cursor';
  cursor.hidden = true;
  const box = Math.max(cellSize, 3);
  cursor.style.cssText = `position:absolute;width:${box}px;height:${box}px;box-sizing:border-box;outline:2px solid var(--attn-focus, #2563eb);pointer-events:none`;
  const scroller = document.createElement('div');
  scroller.className = 'attn-canvas-scroll';
  scroller.style.cssText =
    'position:relative;overflow:auto;max-width:100%;max-height:660px;contain:strict;content-visibility:auto;width:min(100%, 660px);height:min(660px, ' +
    (R * cellSize + 16) +
    'px)';
  scroller.append(canvas, cursor);
  const readout = document.createElement('p');
  readout.className = 'attn-readout';
  readout.dataset.role = 'readout';
  readout.setAttribute('aria-live', 'polite');
  readout.textContent = say('figure.canvas.hint');
  const read = (i, j) => showValue(readout, '', i, j, weights.data[i * C + j], rowLabels, colLabels, lang);
  canvas.addEventListener('pointermove', (event) => {
    const at = cellAt(event, canvas, R, C);
    if (at) read(at[0], at[1]);
  });
  let at = null; // the keyboard's cursor [i, j]
  canvas.addEventListener('keydown', (event) => {
    const move = MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    const [i, j] = move(...(at ?? [0, 0]), Math.max(1, Math.floor(640 / cellSize)), C);
    at = [Math.min(R - 1, Math.max(0, i)), Math.min(C - 1, Math.max(0, j))];
    cursor.hidden = false;
    cursor.style.left = `${at[1] * cellSize - (box - cellSize) / 2}px`;
    cursor.style.top = `${at[0] * cellSize - (box - cellSize) / 2}px`;
    cursor.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    read(at[0], at[1]);
  });
  canvas.addEventListener('blur', () => {
    cursor.hidden = true;
  });
  const root = document.createElement('div');
  root.className = 'attn-figure attn-canvas-map';
  root.dataset.stage = 'weights';
  root.dataset.rows = R;
  root.dataset.cols = C;
  if (title) {
    const heading = document.createElement('p');
    heading.className = 'attn-title';
    heading.textContent = title;
    root.append(heading);
  }
  root.append(scroller, readout);
  if (note) {
    const caption = document.createElement('p');
    caption.className = 'attn-canvas-note';
    caption.dataset.role = 'canvas-note';
    caption.id = `attn-canvas-note-${(notes += 1)}`;
    caption.textContent = note;
    canvas.setAttribute('aria-describedby', caption.id);
    root.append(caption);
  }
  return root;
}
