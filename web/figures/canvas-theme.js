// The colours of a canvas map, read from the page like the SVG heatmaps read them: the tones
// (--attn-weight, --attn-pos, --attn-neg), the paper (--attn-cell) and the masked background
// (--attn-masked-bg) as computed for the canvas element, so light, dark and an embedding page's
// own values all apply. A weight's colour is figures.css's
//   color-mix(in oklab, tone calc(t * 85%), cell)
// computed here in JS (toneMix: Oklab, Björn Ottosson 2020), so a canvas pixel and the SVG cell of
// the same weight agree to rounding; the command line's static files use it too.
//
// canvasColours(canvas) -> { mix(tone, t) -> [r, g, b], masked: [r, g, b] }; tone is 'seq', 'pos' or 'neg'.
// onThemeChange(canvas, repaint): repaint while the canvas is in the page, when the page's theme changes.
import { PALETTE } from './palette.js';

const TONE_SHARE = 0.85; // figures.css: the tone takes at most 85% of a cell

const LEVELS = 256; // t is looked up in 1/255 steps: under half a colour level apart

const PROPERTIES = {
  seq: ['--attn-weight', PALETTE.weight[0]],
  pos: ['--attn-pos', PALETTE.pos[0]],
  neg: ['--attn-neg', PALETTE.neg[0]],
  cell: ['--attn-cell', PALETTE.cell[0]],
  masked: ['--attn-masked-bg', PALETTE['masked-bg'][0]],
};

let swatch = null; // a 1 x 1 canvas that turns any CSS colour string into sRGB bytes
const bytesOf = new Map(); // CSS colour string -> [r, g, b]: the same few strings for every canvas
function rgbOf(css) {
  if (!bytesOf.has(css)) bytesOf.set(css, swatchBytes(css));
  return bytesOf.get(css);
}

function swatchBytes(css) {
  swatch ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  swatch.clearRect(0, 0, 1, 1);
  swatch.fillStyle = '#000';
  swatch.fillStyle = css;
  swatch.fillRect(0, 0, 1, 1);
  return [...swatch.getImageData(0, 0, 1, 1).data.slice(0, 3)];
}

/** The page's value of each property for `canvas` (its light default when the canvas is not in a page). */
function resolved(canvas) {
  const out = {};
  if (!canvas.isConnected) {
    for (const [key, [, fallback]] of Object.entries(PROPERTIES)) out[key] = rgbOf(fallback);
    return out;
  }
  // One probe per property, all in place before the first read: one style recalculation, not five.
  const entries = Object.entries(PROPERTIES);
  const probes = entries.map(([, [property, fallback]]) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${property}, ${fallback})`;
    return probe;
  });
  canvas.append(...probes); // a canvas's children are fallback content: never drawn, but they inherit its properties
  entries.forEach(([key], k) => {
    out[key] = getComputedStyle(probes[k]).color;
  });
  for (const probe of probes) probe.remove();
  for (const key of Object.keys(out)) out[key] = rgbOf(out[key]);
  return out;
}

const toLinear = (byte) => {
  const x = byte / 255;
  return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
};
const toByte = (x) => Math.round(255 * Math.min(1, Math.max(0, x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055)));

/** sRGB bytes -> Oklab [L, a, b]. */
function oklab(rgb) {
  const [r, g, b] = rgb.map(toLinear);
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** Oklab -> sRGB bytes, clipped. */
function srgb([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ].map(toByte);
}

/** figures.css's cell colour: t * 85% of `tone` mixed into `cell` in Oklab; sRGB bytes [r, g, b] in and out. */
export function toneMix(tone, cell, t) {
  const share = t * TONE_SHARE;
  const [a, b] = [oklab(tone), oklab(cell)];
  return srgb(a.map((x, k) => share * x + (1 - share) * b[k]));
}

/** LEVELS colours from the cell (t = 0) to 85% of the tone (t = 1), as figures.css mixes them. */
function ramp(tone, cell) {
  return Array.from({ length: LEVELS }, (_, k) => toneMix(tone, cell, k / (LEVELS - 1)));
}

const ramps = new Map(); // 'tone|cell' -> ramp, shared by every canvas of the same colours

export function canvasColours(canvas) {
  const c = resolved(canvas);
  const rampOf = (tone) => {
    const key = `${c[tone]}|${c.cell}`;
    if (!ramps.has(key)) ramps.set(key, ramp(c[tone], c.cell));
    return ramps.get(key);
  };
  const tones = { seq: rampOf('seq'), pos: rampOf('pos'), neg: rampOf('neg') };
  return { mix: (tone, t) => tones[tone][Math.round(t * (LEVELS - 1))], masked: c.masked };
}

// Canvases painted before they were in a page (or before a theme change) are painted again: on
// the next frames until they are in the page, and whenever <html>'s attributes or the system's
// colour scheme change (the explorer's theme switch sets <html data-theme>).
const painted = new Map(); // canvas -> repaint
const wasInPage = new WeakSet(); // canvases seen in a page: once out of it, they are dropped
let scheme = null; // the system's colour scheme query, held so that its listener is not collected

function repaintAll() {
  for (const [canvas, repaint] of painted) {
    if (canvas.isConnected) repaint();
  }
}

function watch() {
  if (scheme || typeof MutationObserver === 'undefined' || !globalThis.matchMedia) return;
  new MutationObserver(repaintAll).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] });
  scheme = globalThis.matchMedia('(prefers-color-scheme: dark)');
  scheme.addEventListener('change', repaintAll);
}

export function onThemeChange(canvas, repaint) {
  watch();
  for (const c of painted.keys()) if (!c.isConnected && wasInPage.has(c)) painted.delete(c);
  const first = !painted.has(canvas);
  painted.set(canvas, repaint);
  if (canvas.isConnected) {
    wasInPage.add(canvas);
    return;
  }
  if (!first) return;
  let frames = 0;
  const later = () => {
    if (canvas.isConnected) {
      wasInPage.add(canvas);
      painted.get(canvas)?.();
      return;
    }
    if (++frames < 600)
      requestAnimationFrame(later); // ten seconds: a figure built but never shown stops waiting
    else painted.delete(canvas);
  };
  requestAnimationFrame(later);
}
