// One counting rule: layers, heads, batches and positions are counted from 0 everywhere (README), as
// PyTorch indexes a tensor and as the command line's --index, its labels and the element's index
// attribute take them. Every figure drawn without labels is held to it: heatmap()'s axes and
// batches, heatmapOrCanvas()'s canvas readout, heads()'s grid, thumbnails, enlarged map and
// readout, links()'s tokens, matrix()'s batches and the CSV export's rows. A figure that counts from 1 shows the count itself (3 for 3 positions) or no 0.
// Drawn in real Chromium (the figures measure text and paint canvases).
import { describe, expect, it } from 'vitest';
import { attach } from '../support/dom.js';
import { canvasHeatmap, heads, heatmap, heatmapOrCanvas, links, matrix } from '../../../web/figures/index.js';
import { matrixCsv } from '../../../web/figures/export/tables.js';

const HAS_DOM = typeof document !== 'undefined';

/** Moves the pointer over the top left weight of a canvas of R x C weights, so its readout speaks. */
function pointAtFirst(canvas, R, C) {
  const box = canvas.getBoundingClientRect();
  canvas.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: box.left + box.width / (2 * C), clientY: box.top + box.height / (2 * R) }));
}

const counted = (n, prefix = '') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const texts = (root, selector) => [...root.querySelectorAll(selector)].map((n) => n.textContent);

// 2 batches (or layers) of 3 queries by 4 keys.
const stack = { data: Float32Array.from({ length: 2 * 3 * 4 }, (_, k) => ((k % 4) + 1) / 10), shape: [2, 3, 4] };
const one = { data: stack.data.subarray(0, 12), shape: [3, 4] };

describe.skipIf(!HAS_DOM)('every figure counts from 0 when it has no labels', () => {
  it("heatmap(): the query axis 0, 1, 2 and the key axis 0..3; batches b0 and b1; a cell's name says query 0", () => {
    const figure = heatmap(one);
    expect(texts(figure, '.attn-axis')).toEqual([...counted(3), ...counted(4)]);
    expect(figure.querySelector('[data-row="0"][data-col="0"]').getAttribute('aria-label')).toMatch(/^weight of query 0 on key 0: /);
    const batches = heatmap(stack);
    expect(texts(batches, '.attn-axis').slice(0, 6)).toEqual(['b0 · 0', 'b0 · 1', 'b0 · 2', 'b1 · 0', 'b1 · 1', 'b1 · 2']);
  });

  it('heatmapOrCanvas() above the cell budget and canvasHeatmap(): the readout names batch b0, query (0) and key (0)', () => {
    const R = 130;
    const big = attach(heatmapOrCanvas({ data: new Float32Array(2 * R * R).fill(1 / R), shape: [2, R, R] }, { rowLabels: counted(R, 't') }));
    pointAtFirst(big.querySelector('canvas'), 2 * R, R);
    expect(big.querySelector('[data-role=readout]').textContent).toMatch(/^query b0 · t0 \(0\) → key \(0\): /);
    const small = attach(canvasHeatmap(one));
    pointAtFirst(small.querySelector('canvas'), 3, 4);
    expect(small.querySelector('[data-role=readout]').textContent).toMatch(/^query \(0\) → key \(0\): /);
  });

  it('heads(): the grid labels H0, H1 and L0, its thumbnails layer 0, head 0, the enlarged map and the readout position 0', () => {
    const figure = attach(heads({ data: stack.data, shape: [1, 2, 3, 4] }, { aggregates: false }));
    expect(texts(figure, '.attn-heads-grid .attn-axis')).toEqual(['H0', 'H1', 'L0']);
    const thumbs = [...figure.querySelectorAll('canvas.attn-thumb')];
    expect(thumbs.map((c) => `${c.dataset.layer},${c.dataset.head} ${c.title}`)).toEqual(['0,0 layer 0, head 0', '0,1 layer 0, head 1']);
    thumbs[0].click();
    expect(texts(figure.querySelector('[data-role=detail]'), '.attn-axis')).toEqual([...counted(3), ...counted(4)]);
    pointAtFirst(thumbs[0], 3, 4);
    expect(figure.querySelector('[data-role=readout]').textContent).toMatch(/^layer 0, head 0: query \(0\) → key \(0\): /);
  });

  it('links(): the queries q0, q1, q2 and the keys k0..k3', () => {
    const figure = links(one);
    expect(texts(figure, '[data-side="query"]')).toEqual(counted(3, 'q'));
    expect(texts(figure, '[data-side="key"]')).toEqual(counted(4, 'k'));
  });

  it('matrix(): a stack of 2 is batch 0 and batch 1', () => {
    expect(texts(matrix(stack), '.attn-batch-label')).toEqual(['batch 0', 'batch 1']);
  });
});

describe('data files count from 0 too', () => {
  it("a CSV of a stack without labels: batches 0 and 1, rows 0..2, columns 'col 0'..'col 3'", () => {
    const lines = matrixCsv(stack).trim().split('\n');
    expect(lines[0]).toBe('batch,row,col 0,col 1,col 2,col 3');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['0,0', '0,1', '0,2', '1,0', '1,1', '1,2']);
  });
});
