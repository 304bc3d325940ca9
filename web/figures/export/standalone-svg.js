// A figure as a standalone SVG file: a deep copy with every style that draws it inlined from the
// computed style (colours resolved to plain rgb(), since figures mix theirs with color-mix() from
// CSS variables that a file does not have), a background in the page's surface colour, a
// <title>, and every data-* attribute kept (data-stage, data-row, data-col, data-value).
import { svg } from '../dom.js';

// What an SVG renderer needs; everything else (layout, cursors, transitions) is left out.
const PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'stop-color',
  'stop-opacity',
];
const COLORS = new Set(['fill', 'stroke', 'stop-color']);
const DROPPED = ['tabindex', 'style'];
const HIGHLIGHTS = ['is-source', 'is-current'];
const MARGIN = 10;

let probe = null;
const cache = new Map();

/** Any CSS colour (oklab(), color(srgb ...), a name) as rgb()/rgba(), by drawing one pixel. */
export function plainColor(color) {
  if (color === 'none' || color.startsWith('url(')) return color.replace(/"/g, '');
  let plain = cache.get(color);
  if (plain === undefined) {
    probe ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = '#000';
    probe.fillStyle = color;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
    plain = a === 255 ? `rgb(${r}, ${g}, ${b})` : a === 0 ? 'none' : `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(3)})`;
    cache.set(color, plain);
  }
  return plain;
}

// Not inherited: written only where they differ from their initial value.
const INITIAL = { opacity: '1', 'stop-color': 'rgb(0, 0, 0)', 'stop-opacity': '1' };

/** The style attribute of a copy: what its source draws with, minus what it inherits anyway. */
function inlineStyle(source, parentStyle) {
  const computed = getComputedStyle(source);
  return PROPERTIES.map((name) => {
    const raw = computed.getPropertyValue(name);
    if (!raw) return '';
    const value = COLORS.has(name) ? plainColor(raw) : raw;
    const inherited =
      name in INITIAL ? INITIAL[name] : parentStyle && (COLORS.has(name) ? plainColor(parentStyle.getPropertyValue(name)) : parentStyle.getPropertyValue(name));
    return value === inherited ? '' : `${name}: ${value};`;
  })
    .filter(Boolean)
    .join(' ');
}

/**
 * The figure's --attn-cell as the browser resolves it: the property may hold var() or light-dark()
 * (the embeddable elements' defaults), which a canvas cannot parse, so a probe element computes it.
 */
function surfaceColor(figure) {
  const probe = figure.appendChild(svg('rect', { style: 'fill: var(--attn-cell, #ffffff)' }));
  const fill = getComputedStyle(probe).fill;
  probe.remove();
  return plainColor(fill);
}

/** -> { text (the SVG file), width, height } of a figure root that is in the document. */
export function standaloneSvg(figure, { title } = {}) {
  // Highlights of the explanation panel are a page state, not part of the figure.
  const highlighted = [...figure.querySelectorAll(HIGHLIGHTS.map((c) => `.${c}`).join(','))].map((node) => [
    node,
    HIGHLIGHTS.filter((c) => node.classList.contains(c)),
  ]);
  for (const [node, classes] of highlighted) node.classList.remove(...classes);
  const copy = figure.cloneNode(true);
  const sources = [figure, ...figure.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  sources.forEach((source, k) => {
    const style = inlineStyle(source, k === 0 ? null : getComputedStyle(source.parentElement));
    for (const name of DROPPED) copies[k].removeAttribute(name);
    if (style) copies[k].setAttribute('style', style);
  });
  for (const [node, classes] of highlighted) node.classList.add(...classes);

  // A margin around the figure (its brackets and labels reach its edges).
  const ns = 'http://www.w3.org/2000/svg';
  const width = Number(figure.getAttribute('width')) + 2 * MARGIN;
  const height = Number(figure.getAttribute('height')) + 2 * MARGIN;
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('viewBox', `${-MARGIN} ${-MARGIN} ${width} ${height}`);
  const background = svg('rect', { x: -MARGIN, y: -MARGIN, width, height, fill: surfaceColor(figure) });
  const heading = svg('title');
  heading.textContent = title ?? figure.getAttribute('aria-label') ?? '';
  copy.setAttribute('xmlns', ns);
  copy.removeAttribute('role');
  copy.prepend(heading, background);
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
  return { text, width, height };
}
