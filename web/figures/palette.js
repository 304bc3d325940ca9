// The figures' palette, written once: each --attn-* property's default as [light, dark]. CSS
// cannot import it: tests/cli/palette.test.js holds figures.css and site tokens.css equal to it.
export const PALETTE = {
  cell: ['#ffffff', '#16171f'],
  ink: ['#1b1a21', '#ecebf2'],
  'ink-muted': ['#686570', '#908fa4'],
  'ink-strong': ['#ffffff', '#0e0f14'],
  grid: ['#e3dfd5', '#2a2c3a'],
  weight: ['#4338ca', '#a5a1ff'],
  pos: ['#c2410c', '#fb8c4a'],
  neg: ['#0369a1', '#4fb3ea'],
  hatch: ['#b9b4a8', '#4a4d60'],
  'masked-bg': ['#f1efe9', '#1b1c25'],
  focus: ['#2563eb', '#7fb0ff'],
  source: ['#d97706', '#fbbf24'],
};

// Public: frozen.
for (const pair of Object.values(PALETTE)) Object.freeze(pair);
Object.freeze(PALETTE);

// NaN in a canvas map or a static file: grey, never mistaken for a weight.
export const NAN_GREY = '#a0a0a0';
