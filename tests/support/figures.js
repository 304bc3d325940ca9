// Reading figures back from a page in the browser suites: a stage's numbers from its cells'
// data-value (in the document or inside an element's shadow root), every number on the page, the
// worst difference from the float64 reference, and waiting for the views to catch up.

/**
 * The stages a backward pass adds after the forward ones, in pipeline order, when the loss is on
 * the attention output (one head, no W^O): the target, then the gradients back to the weights.
 */
export const BACKWARD_STAGES = ['target', 'd-output', 'd-weights', 'd-scores', 'dq', 'dk', 'dv', 'dwq', 'dwk', 'dwv'];

/** Resolves after the page has had two frames: edits reach the store, then the views. */
export const settle = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * The numbers of a stage's figure as nested arrays (B, R, C), from the cells' data-value.
 * figure: extra attribute filters, e.g. { run: 1 } (default the first figure of the stage);
 * host: the selector of an element whose shadow root holds the figure (default the document).
 */
export function stageValues(page, stage, figure = {}, host = null) {
  return page.evaluate(
    ([stage, figure, host]) => {
      const filters = Object.entries(figure)
        .map(([k, v]) => `[data-${k}="${v}"]`)
        .join('');
      const root = host ? document.querySelector(host).shadowRoot : document;
      const svg = root.querySelector(`svg[data-stage="${stage}"]${filters}`);
      if (!svg) throw new Error(`${host ? `${host}: ` : ''}no figure svg[data-stage="${stage}"]${filters}${host ? ' in its shadow root' : ''}`);
      const out = [];
      for (const cell of svg.querySelectorAll('[data-value][data-row]')) {
        // the figures' cell contract (web/figures/index.d.ts)
        const [b, i, j] = ['batch', 'row', 'col'].map((k) => Number(cell.dataset[k] ?? 0));
        ((out[b] ??= [])[i] ??= [])[j] = Number(cell.dataset.value);
      }
      return out;
    },
    [stage, figure, host],
  );
}

/** stageValues of the figure inside the shadow root of the element `selector`. */
export const shadowStageValues = (page, selector, stage, figure = {}) => stageValues(page, stage, figure, selector);

/** Every number on the page: 'stage|head|run|param|batch|row|col' -> data-value. */
export function allValues(page) {
  return page.evaluate(() => {
    const map = {};
    for (const svg of document.querySelectorAll('svg[data-stage]')) {
      const f = svg.dataset;
      for (const cell of svg.querySelectorAll('[data-value]')) {
        const c = cell.dataset;
        map[[f.stage, f.head, f.run, f.param, c.batch, c.row, c.col].join('|')] = c.value;
      }
    }
    return map;
  });
}

/** The largest |a - b| over two nested arrays of the same shape, with where it is (for messages). */
export function worstDifference(actual, expected, path = []) {
  if (!Array.isArray(expected)) return { diff: Math.abs(actual - expected), at: path, actual, expected };
  let worst = { diff: 0, at: path };
  expected.forEach((e, k) => {
    const w = worstDifference(actual?.[k], e, [...path, k]);
    if (!(w.diff <= worst.diff)) worst = w; // NaN (a missing cell) counts as the worst
  });
  return worst;
}
