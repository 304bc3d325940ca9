// links(weights, options) -> SVGSVGElement: BertViz-style lines from each query token (left) to
// each key token (right), as opaque and thick as the attention weight. Hovering or focusing a
// token shows only its lines.
//
// weights: { data, shape } or nested arrays, (Tq, Tk) (the first batch of a stack is drawn).
// options: stage ('weights'), title, rowLabels (the Tq queries; default q0, q1...), colLabels (the Tk keys; default k0, k1...), masked (per element),
//   lang ('en' or 'zh-CN': the default title and the names), attrs. Lines carry data-row (query), data-col (key), data-value; tokens (data-side,
//   data-index) are focusable, arrow keys move within and across the two columns.
import { refuseRenamed } from '../src/boundary/renamed.js';
import { toTensor } from '../src/to-tensor.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { formatNumber, fullValue } from './format.js';
import { rovingGrid } from './interact/roving.js';
import { svg, textWidth, widestText } from './svg.js';

const ROW = 26;
const FONT = 12.5;

export function links(input, options = {}) {
  const weights = toTensor(input, 'links: weights');
  refuseRenamed('links', options, { queryTokens: 'rowLabels', keyTokens: 'colLabels' });
  const lang = langOption(options.lang, 'links');
  const say = (key, params) => figureMessage(lang, key, params);
  const { stage = 'weights', title = say('figure.links.title'), masked = null, attrs = {} } = options;
  const [R, C] = weights.shape.length === 1 ? [1, weights.shape[0]] : weights.shape.slice(-2);
  const rowLabels = options.rowLabels ?? Array.from({ length: R }, (_, i) => `q${i}`);
  const colLabels = options.colLabels ?? Array.from({ length: C }, (_, j) => `k${j}`);
  const leftW = Math.ceil(widestText(rowLabels, FONT)) + 18;
  const rightW = Math.ceil(widestText(colLabels, FONT)) + 18;
  const span = 150;
  const top = title ? 30 : 8;
  const xl = leftW;
  const xr = leftW + span;
  const yOf = (k) => top + k * ROW + ROW / 2;

  const lines = svg('g', { class: 'attn-links' });
  for (let i = 0; i < R; i++) {
    for (let j = 0; j < C; j++) {
      const k = i * C + j;
      const w = weights.data[k];
      if (masked?.[k] || !(w > 0.003)) continue; // invisible lines only clutter the DOM
      lines.append(
        svg(
          'line',
          {
            x1: xl + 4,
            y1: yOf(i),
            x2: xr - 4,
            y2: yOf(j),
            class: 'attn-link',
            'stroke-width': (0.75 + 5 * w).toFixed(2),
            style: `--w: ${w.toFixed(3)}`,
            'data-row': i,
            'data-col': j,
            'data-value': fullValue(w),
          },
          [svg('title', {}, [`${rowLabels[i]} → ${colLabels[j]}: ${formatNumber(w)}`])],
        ),
      );
    }
  }
  const token = (text, side, k) => {
    const x = side === 'query' ? xl - 8 : xr + 8;
    const node = svg(
      'g',
      {
        class: `attn-token ${side}`,
        role: 'gridcell',
        'data-side': side,
        'data-index': k,
        'aria-label':
          side === 'query'
            ? say('figure.links.query', { token: text, keys: colLabels.map((key, j) => `${key} ${formatNumber(weights.data[k * C + j])}`).join(', ') })
            : say('figure.links.key', { token: text }),
      },
      [
        svg('rect', {
          class: 'tile',
          x: side === 'query' ? x - textWidth(text, FONT) - 8 : x - 6,
          y: yOf(k) - 10,
          width: textWidth(text, FONT) + 14,
          height: 20,
          rx: 6,
        }),
        svg('text', { x, y: yOf(k), dy: '0.35em', 'text-anchor': side === 'query' ? 'end' : 'start', 'font-size': FONT }, [text]),
      ],
    );
    return node;
  };
  const queries = rowLabels.map((t, i) => token(t, 'query', i));
  const keys = colLabels.map((t, j) => token(t, 'key', j));
  const height = top + Math.max(R, C) * ROW + 6;
  const width = xr + rightW;
  const root = svg(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      class: 'attn-figure attn-links-figure',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'grid',
      'aria-label': say('figure.links.name', { title, rows: R, cols: C }),
      'data-stage': stage,
      ...attrs,
    },
    [
      ...(title ? [svg('text', { x: 0, y: 16, class: 'attn-title', 'font-size': 12.5 }, [title])] : []),
      lines,
      svg('g', { role: 'row' }, queries),
      svg('g', { role: 'row' }, keys),
    ],
  );
  const showOnly = (event) => {
    const tokenNode = event.target.closest?.('.attn-token');
    if (!tokenNode) return;
    const { side } = tokenNode.dataset;
    const k = tokenNode.dataset.index;
    root.classList.add('has-focus');
    for (const line of lines.children) {
      const on = side === 'query' ? line.dataset.row === k : line.dataset.col === k;
      line.classList.toggle('on', on);
    }
  };
  const showAll = () => root.classList.remove('has-focus');
  root.addEventListener('pointerover', showOnly);
  root.addEventListener('focusin', showOnly);
  root.addEventListener('pointerleave', showAll);
  root.addEventListener('focusout', showAll);
  // Keyboard: one row per position, query then key (Left/Right switch sides, Up/Down move).
  rovingGrid(
    root,
    Array.from({ length: Math.max(R, C) }, (_, k) => [queries[k], keys[k]].filter(Boolean)),
  );
  return root;
}
