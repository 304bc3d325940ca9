// The colour legend drawn inside a figure (so an exported SVG keeps it): a bar with its ends
// labelled, and a hatched swatch for masked cells when the figure has any.
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { colorScale, gradientStops } from './color.js';
import { formatNumber } from './format.js';
import { svg, uid } from './svg.js';

const BAR = { width: 112, height: 8 };

/** A gradient bar for `scale` at (x, y), its words in `lang` ('en' or 'zh-CN'); -> { node, width, height }. */
export function legend(scale, { x = 0, y = 0, hatchId = null, lang } = {}) {
  const words = langOption(lang, 'legend');
  const id = uid('attn-grad');
  const gradient = svg(
    'linearGradient',
    { id },
    gradientStops(scale).map(([offset, tone, t]) => svg('stop', { offset, class: `attn-stop ${tone}`, style: `--t: ${t}` })),
  );
  const labelY = BAR.height + 12;
  const parts = [
    svg('defs', {}, [gradient]),
    svg('rect', { width: BAR.width, height: BAR.height, rx: 4, fill: `url(#${id})`, class: 'attn-legend-bar' }),
    svg('text', { x: 0, y: labelY, class: 'attn-legend-text' }, [formatNumber(scale.min)]),
    svg('text', { x: BAR.width, y: labelY, class: 'attn-legend-text', 'text-anchor': 'end' }, [formatNumber(scale.max)]),
  ];
  if (scale.kind !== 'weights') {
    parts.push(svg('text', { x: BAR.width / 2, y: labelY, class: 'attn-legend-text', 'text-anchor': 'middle' }, ['0']));
  }
  let width = BAR.width;
  if (hatchId) {
    const sx = BAR.width + 16;
    parts.push(
      svg('rect', { x: sx, y: -2, width: 12, height: 12, rx: 2, fill: `url(#${hatchId})`, class: 'attn-legend-swatch' }),
      svg('text', { x: sx + 17, y: 8, class: 'attn-legend-text' }, [figureMessage(words, 'figure.legend.masked')]),
    );
    width = sx + 17 + 48;
  }
  return { node: svg('g', { class: 'attn-legend', transform: `translate(${x} ${y})`, 'aria-hidden': 'true' }, parts), width, height: labelY + 4 };
}

export { colorScale };
