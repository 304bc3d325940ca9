// The colours of a static figure. The figure functions leave colour to figures.css (color-mix() in
// oklab of a tone into the cell colour, by intensity t); a file written without a browser has no
// CSS engine, so the same mix is computed here into plain #rrggbb, from the figures' palette (light).
// Oklab: Björn Ottosson's matrices (bottosson.github.io/posts/oklab, as CSS Color 4 defines oklab).
import { NAN_GREY, PALETTE } from '../web/figures/index.js';

const light = (name) => PALETTE[name][0];

export const INK = {
  cell: light('cell'),
  text: light('ink'),
  muted: light('ink-muted'),
  strong: light('ink-strong'),
  grid: light('grid'),
};
const TONES = { pos: light('pos'), neg: light('neg'), seq: light('weight') };
const SHARE = 0.85; // figures.css: color-mix(in oklab, tone calc(t * 85%), cell)
export const NAN_FILL = NAN_GREY;

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

function hexToOklab(hex) {
  const [r, g, b] = [1, 3, 5].map((k) => toLinear(parseInt(hex.slice(k, k + 2), 16) / 255));
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function oklabToHex([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const rgb = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  return `#${rgb
    .map((c) =>
      Math.round(255 * Math.min(1, Math.max(0, toGamma(c))))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

const CELL_LAB = hexToOklab(INK.cell);
const TONE_LAB = Object.fromEntries(Object.entries(TONES).map(([k, hex]) => [k, hexToOklab(hex)]));

/** The fill of a cell of tone ('pos', 'neg', 'seq') at intensity t in [0, 1], as figures.css draws it. */
export function toneColor(tone, t) {
  const p = t * SHARE;
  return oklabToHex(TONE_LAB[tone].map((v, k) => p * v + (1 - p) * CELL_LAB[k]));
}
