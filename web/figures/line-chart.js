// lineChart(values, options) -> SVGSVGElement: a small line chart of a series (a loss curve),
// y from 0 (or the smallest value, if negative) to the largest, the last point marked and labelled.
//
// values: number[] (x is the index). options: stage ('line'), title, xlabel ('step'), width (300),
//   height (150), empty (the text shown while there is no value), lang ('en' or 'zh-CN': the default words), attrs. The root carries data-stage, data-count and data-last (String of the last
//   value); the line is a <path>, so a long series costs one element.
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { formatNumber, fullValue } from './format.js';
import { svg } from './svg.js';

const FONT = 10.5;
const PAD = { left: 44, right: 14, top: 24, bottom: 28 };

export function lineChart(values, options = {}) {
  const lang = langOption(options.lang, 'lineChart');
  const say = (key, params) => figureMessage(lang, key, params);
  const { stage = 'line', title = '', xlabel = say('figure.line.xlabel'), width = 300, height = 150, empty = say('figure.line.empty'), attrs = {} } = options;
  const finite = values.filter(Number.isFinite);
  // A loop, not Math.max(...finite): a spread of ~10^5 values overflows the stack.
  const hi = finite.length ? finite.reduce((a, b) => (b > a ? b : a)) : 1;
  const lo = finite.reduce((a, b) => (b < a ? b : a), 0);
  const span = hi - lo || 1;
  const n = values.length;
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (k) => PAD.left + (n > 1 ? (k / (n - 1)) * plotW : plotW / 2);
  const y = (v) => PAD.top + (1 - (v - lo) / span) * plotH;

  const parts = [];
  if (title) parts.push(svg('text', { x: 0, y: 14, class: 'attn-title', 'font-size': 12.5 }, [title]));
  for (const v of [lo, lo + span / 2, hi]) {
    parts.push(
      svg('line', { x1: PAD.left, x2: PAD.left + plotW, y1: y(v), y2: y(v), class: 'attn-gridline' }),
      svg('text', { x: PAD.left - 6, y: y(v), dy: '0.35em', 'text-anchor': 'end', class: 'attn-axis', 'font-size': FONT }, [
        formatNumber(Number(v.toPrecision(3))),
      ]),
    );
  }
  parts.push(
    svg('text', { x: PAD.left, y: height - 8, class: 'attn-axis', 'font-size': FONT }, ['0']),
    svg('text', { x: PAD.left + plotW, y: height - 8, 'text-anchor': 'end', class: 'attn-axis', 'font-size': FONT }, [String(Math.max(0, n - 1))]),
    svg('text', { x: PAD.left + plotW / 2, y: height - 8, 'text-anchor': 'middle', class: 'attn-axis-title', 'font-size': FONT }, [xlabel]),
  );
  const points = values.map((v, k) => [x(k), y(Number.isFinite(v) ? v : hi)]);
  if (n > 0) {
    const d = points.map(([px, py], k) => `${k ? 'L' : 'M'}${px.toFixed(1)} ${py.toFixed(1)}`).join('');
    const [lx, ly] = points[n - 1];
    parts.push(
      svg('path', { d, class: 'attn-line' }),
      svg('circle', { cx: lx, cy: ly, r: 3.2, class: 'attn-line-end' }),
      svg('text', { x: Math.min(lx, width - PAD.right), y: ly - 8, 'text-anchor': 'end', class: 'attn-line-label', 'font-size': FONT + 0.5 }, [
        formatNumber(values[n - 1]),
      ]),
    );
  }
  if (n === 0)
    parts.push(
      svg('text', { x: PAD.left + plotW / 2, y: PAD.top + plotH / 2, dy: '0.35em', 'text-anchor': 'middle', class: 'attn-axis', 'font-size': FONT + 1 }, [
        empty,
      ]),
    );
  const last = n ? values[n - 1] : NaN;
  return svg(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      class: 'attn-figure attn-line-chart',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': n
        ? say('figure.line.name', { title: title || say('figure.line.series'), count: n, first: fullValue(values[0]), last: fullValue(last) })
        : say('figure.line.name-empty', { title: title || say('figure.line.series') }),
      'data-stage': stage,
      'data-count': n,
      'data-last': n ? fullValue(last) : '',
      ...attrs,
    },
    parts,
  );
}
