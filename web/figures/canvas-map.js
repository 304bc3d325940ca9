// Attention weights drawn as pixels on a canvas, one pixel per (query, key), for sizes where one
// SVG cell per weight is too many (T > 64: 4,096 cells; a 12 x 12 grid of heads at T = 128 is 2.4
// million). The colour is figures.css's sequential scale on [0, 1] (paper to --attn-weight's
// default); a page scales the canvas with CSS (image-rendering: pixelated keeps cells sharp).
//
// canvasHeatmap(weights (Tq, Tk), options) -> HTMLDivElement[data-stage=weights]: a scrolling
// canvas with a readout [data-role=readout] that shows the exact value under the pointer (its
// data-row, data-col, data-value as the SVG cells carry them). Options: title, rowLabels,
// colLabels, cellSize (CSS px per weight, default fits 640 px, at least 1), highlight (token indices).
import { toTensor } from '../src/to-tensor.js';
import { fullValue } from './format.js';
import { NAN_GREY, PALETTE } from './palette.js';

const hexRgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));

export const WEIGHT_RGB = hexRgb(PALETTE.weight[0]); // --attn-weight's light default
const PAPER = 255;
const NAN_RGB = hexRgb(NAN_GREY);
const FADED = 0.22; // the share of its colour a weight outside highlighted rows and columns keeps

/**
 * Paints the (R, C) block of `data` at `offset` into `canvas` (resized to C x R pixels).
 * highlight: a Set of token indices; weights in none of their rows or columns are faded.
 */
export function paintWeights(canvas, data, offset, R, C, highlight = null) {
  if (canvas.width !== C) canvas.width = C;
  if (canvas.height !== R) canvas.height = R;
  const context = canvas.getContext('2d');
  const image = context.createImageData(C, R);
  const px = image.data;
  const [r0, g0, b0] = WEIGHT_RGB;
  const some = highlight && highlight.size > 0;
  for (let i = 0; i < R; i++) {
    const rowOn = !some || highlight.has(i);
    for (let j = 0; j < C; j++) {
      const v = data[offset + i * C + j];
      let t = v > 0 ? (v < 1 ? v : 1) : 0;
      if (!rowOn && !highlight.has(j)) t *= FADED;
      const p = 4 * (i * C + j);
      if (v !== v) { // NaN: grey, never mistaken for a weight
        [px[p], px[p + 1], px[p + 2]] = NAN_RGB;
      } else {
        px[p] = PAPER + (r0 - PAPER) * t;
        px[p + 1] = PAPER + (g0 - PAPER) * t;
        px[p + 2] = PAPER + (b0 - PAPER) * t;
      }
      px[p + 3] = 255;
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

/** Sets the readout to one weight: its text and data-row/data-col/data-value. */
export function showValue(readout, where, i, j, value, rowLabels, colLabels) {
  readout.dataset.row = i;
  readout.dataset.col = j;
  readout.dataset.value = fullValue(value);
  readout.textContent = `${where}query ${rowLabels ? `${rowLabels[i]} ` : ''}(${i}) → key ${colLabels ? `${colLabels[j]} ` : ''}(${j}): ${fullValue(value)}`;
}

export function canvasHeatmap(input, options = {}) {
  const weights = toTensor(input, 'canvasHeatmap: weights');
  if (weights.shape.length !== 2) throw new RangeError(`canvasHeatmap: weights must have shape (Tq, Tk), got [${weights.shape.join(', ')}]`);
  const [R, C] = weights.shape;
  const { title = 'Attention weights', rowLabels = null, colLabels = null, highlight = null } = options;
  const cellSize = options.cellSize ?? Math.max(1, Math.floor(640 / Math.max(R, C)));
  const canvas = document.createElement('canvas');
  canvas.className = 'attn-canvas';
  canvas.style.cssText = `width:${C * cellSize}px;height:${R * cellSize}px;image-rendering:pixelated;display:block`;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${title}: ${R} queries by ${C} keys`);
  paintWeights(canvas, weights.data, 0, R, C, highlight);
  const scroller = document.createElement('div');
  scroller.className = 'attn-canvas-scroll';
  scroller.style.cssText = 'overflow:auto;max-width:100%;max-height:660px;contain:strict;content-visibility:auto;width:min(100%, 660px);height:min(660px, ' + (R * cellSize + 16) + 'px)';
  scroller.append(canvas);
  const readout = document.createElement('p');
  readout.className = 'attn-readout';
  readout.dataset.role = 'readout';
  readout.setAttribute('aria-live', 'polite');
  readout.textContent = 'Point at a weight to read it.';
  canvas.addEventListener('pointermove', (event) => {
    const at = cellAt(event, canvas, R, C);
    if (at) showValue(readout, '', at[0], at[1], weights.data[at[0] * C + at[1]], rowLabels, colLabels);
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
  return root;
}
