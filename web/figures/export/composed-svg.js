// Everything a container shows (an element's body) as one SVG or PNG file: each figure becomes a
// standalone SVG (standalone-svg.js: styles and colours inlined, data-* kept), and several are
// composed into one SVG at the places the page lays them out, with the headings and captions as
// SVG text, line by line as they wrap.
import { svg } from '../dom.js';
import { saveSvg } from './download.js';
import { plainColor, standaloneSvg } from './standalone-svg.js';

const MARGIN = 12;

/** The lines of a wrapped text node: [{ text, rect }] from the boxes of its words. */
function textLines(textNode) {
  const lines = [];
  const range = document.createRange();
  for (const match of textNode.data.matchAll(/\S+/g)) {
    range.setStart(textNode, match.index);
    range.setEnd(textNode, match.index + match[0].length);
    const rect = range.getBoundingClientRect();
    if (rect.width === 0) continue;
    const line = lines.at(-1);
    if (line && Math.abs(line.rect.top - rect.top) < rect.height / 2) {
      line.text += ` ${match[0]}`;
      line.right = rect.right;
    } else {
      lines.push({ text: match[0], rect, right: rect.right });
    }
  }
  return lines;
}

/** SVG <text> for every line of HTML text inside body (outside the figures), placed as shown. */
function textNodes(body, origin) {
  const nodes = [];
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement.closest('svg') || !n.data.trim() ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const style = getComputedStyle(n.parentElement);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    for (const line of textLines(n)) {
      const attrs = {
        x: (line.rect.left - origin.left + MARGIN).toFixed(1),
        y: (line.rect.top + line.rect.height / 2 - origin.top + MARGIN).toFixed(1),
        'dominant-baseline': 'central',
        style: `font-family: ${style.fontFamily}; font-size: ${style.fontSize}; font-weight: ${style.fontWeight}; font-style: ${style.fontStyle}; letter-spacing: ${style.letterSpacing === 'normal' ? 0 : style.letterSpacing}; fill: ${plainColor(style.color)};`,
      };
      nodes.push(svg('text', attrs, [style.textTransform === 'uppercase' ? line.text.toUpperCase() : line.text]));
    }
  }
  return nodes;
}

/** -> { text, width, height }: every figure of body in one SVG file, laid out as on the page. */
export function composedSvg(body, { background, title }) {
  const origin = body.getBoundingClientRect();
  const width = Math.ceil(body.scrollWidth + 2 * MARGIN);
  const height = Math.ceil(body.scrollHeight + 2 * MARGIN);
  const root = svg('svg', { xmlns: 'http://www.w3.org/2000/svg', width, height, viewBox: `0 0 ${width} ${height}` });
  const heading = svg('title', {});
  heading.textContent = title;
  root.append(heading, svg('rect', { width, height, fill: background }));
  for (const figure of body.querySelectorAll('svg.attn-figure')) {
    const box = figure.getBoundingClientRect();
    const file = standaloneSvg(figure);
    const inner = new DOMParser().parseFromString(file.text, 'image/svg+xml').documentElement;
    // standaloneSvg pads the figure by (file.width - box.width) / 2 on each side.
    inner.setAttribute('x', (box.left - origin.left + MARGIN - (file.width - box.width) / 2).toFixed(1));
    inner.setAttribute('y', (box.top - origin.top + MARGIN - (file.height - box.height) / 2).toFixed(1));
    root.append(document.importNode(inner, true));
  }
  // After the figures: a figure's padding must not cover a heading just above it.
  root.append(...textNodes(body, origin));
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`, width, height };
}

/** Downloads body's figure as kind 'svg' or 'png'; nameParts name the file. */
export async function exportFigure(body, kind, nameParts) {
  const figures = body.querySelectorAll('svg.attn-figure');
  if (figures.length === 0) throw new Error('there is no figure to export yet');
  const title = [...figures].map((f) => f.getAttribute('aria-label')).join('; ');
  const background = plainColor(getComputedStyle(body.parentElement).backgroundColor);
  const onlyFigure = figures.length === 1 && textNodes(body, body.getBoundingClientRect()).length === 0;
  await saveSvg(onlyFigure ? standaloneSvg(figures[0]) : composedSvg(body, { background, title }), kind, nameParts);
}
