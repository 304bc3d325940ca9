// The colours of a static figure. The figure functions leave colour to figures.css (color-mix() in
// oklab of a tone into the cell colour, by intensity t); a file written without a browser has no
// CSS engine, so the figures' toneMix (the canvas maps' mix) computes it into plain #rrggbb, from
// the figures' palette (light).
import { NAN_GREY, PALETTE, toneMix } from '../web/figures/index.js';

const light = (name) => PALETTE[name][0];

export const INK = {
  cell: light('cell'),
  text: light('ink'),
  muted: light('ink-muted'),
  strong: light('ink-strong'),
  grid: light('grid'),
};
const TONES = { pos: light('pos'), neg: light('neg'), seq: light('weight') };
export const NAN_FILL = NAN_GREY;

const bytes = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
const CELL = bytes(INK.cell);
const TONE_BYTES = Object.fromEntries(Object.entries(TONES).map(([k, color]) => [k, bytes(color)]));

/** The fill of a cell of tone ('pos', 'neg', 'seq') at intensity t in [0, 1], as figures.css draws it. */
export const toneColor = (tone, t) => hex(toneMix(TONE_BYTES[tone], CELL, t));
