// One colour mix (toneMix, web/figures/canvas-theme.js): figures.css colours an SVG cell with
// color-mix(in oklab, tone calc(t * 85%), cell); a canvas map's pixels and the command line's
// static files cannot use CSS, so toneMix computes the same mix in JS. Here Chromium's CSS is the
// reference: an SVG heatmap's cells, a canvas map's pixels and toneMix must agree for the same
// weights, in the sequential and in the diverging scale. Browser only (it needs a CSS engine).
import { describe, expect, it } from 'vitest';
import { PALETTE, canvasHeatmap, heatmap, toneMix } from '../../../web/figures/index.js';
import { channelGap, rgbOf, withFigureStyles } from '../support/drawn-colours.js';

const HAS_DOM = typeof document !== 'undefined';
// CSS mixes in floats and rounds once; the canvas map looks t up in 1/255 steps (the weights below
// sit on those steps) and rounds once: one level of 255 per channel is the rounding, anything more
// is a different mix (an sRGB blend of these tones is up to 19 levels off).
const LEVEL = 1;

const bytes = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
const light = (name) => bytes(PALETTE[name][0]);

/** The figure's cells' drawn colours, left to right: the SVG's computed fills, the canvas's pixels. */
function drawn(weights, colorScale) {
  const data = { data: Float32Array.from(weights), shape: [1, weights.length] };
  const svg = heatmap(data, { colorScale });
  const map = canvasHeatmap(data, { colorScale });
  document.body.append(svg, map);
  const tiles = [...svg.querySelectorAll('.cell > .tile')].map((tile) => rgbOf(getComputedStyle(tile).fill));
  const pixels = map.querySelector('canvas').getContext('2d').getImageData(0, 0, weights.length, 1).data;
  const canvas = weights.map((_, j) => [...pixels.slice(4 * j, 4 * j + 3)]);
  svg.remove();
  map.remove();
  return { tiles, canvas };
}

/** The largest channel difference of two lists of [r, g, b], with the cells that differ, for the message. */
function worst(a, b, weights) {
  let most = 0;
  const lines = [];
  a.forEach((rgb, j) => {
    const d = channelGap(rgb, b[j]);
    most = Math.max(most, d);
    if (d > LEVEL) lines.push(`weight ${weights[j]}: [${rgb}] vs [${b[j]}]`);
  });
  return { most, lines: lines.join('\n') };
}

describe.skipIf(!HAS_DOM)('one colour mix for the SVG cells, the canvas maps and static files', () => {
  withFigureStyles();

  const cases = [
    { scale: 'weights', weights: [0, 0.2, 0.4, 0.6, 0.8, 1], tone: () => 'weight', t: (v) => v },
    { scale: 'signed', weights: [-1, -0.6, -0.2, 0, 0.4, 1], tone: (v) => (v < 0 ? 'neg' : 'pos'), t: (v) => Math.abs(v) },
  ];
  for (const { scale, weights, tone, t } of cases) {
    it(`draws the ${scale} scale's weights ${weights.join(', ')} in CSS's color-mix() colours, on canvas and by toneMix`, () => {
      const { tiles, canvas } = drawn(weights, scale);
      const mixed = weights.map((v) => toneMix(light(tone(v)), light('cell'), t(v)));
      expect(tiles).toHaveLength(weights.length);
      for (const [name, colours] of [
        ['canvas map', canvas],
        ['toneMix', mixed],
      ]) {
        const { most, lines } = worst(colours, tiles, weights);
        expect(most, `${name} vs the SVG cells (CSS):\n${lines}`).toBeLessThanOrEqual(LEVEL);
      }
    });
  }

  it('mixes nothing at t = 0 and 85% of the tone at t = 1', () => {
    expect(toneMix(light('weight'), light('cell'), 0)).toEqual(light('cell'));
    const full = toneMix(light('weight'), light('cell'), 1);
    expect(full).not.toEqual(light('weight'));
    expect(full).not.toEqual(light('cell'));
  });
});
