// Colour scales. A figure tags each cell with a tone (pos, neg, seq) and an intensity t in
// [0, 1]; figures.css mixes the tone into the cell colour with color-mix(), so the palette comes
// from CSS custom properties (--attn-pos, --attn-neg, --attn-weight, --attn-cell) and follows
// light/dark themes and embedding pages.
//   'weights': sequential on the fixed domain [0, 1], so heads and presets compare by eye.
//   'signed':  diverging around 0, symmetric to the largest magnitude among the shown values.

/** -> { kind, max, tone(v), t(v) }; `include(k)` says which entries count for the domain. */
export function colorScale(kind, data, include = () => true) {
  if (kind === 'weights') {
    return { kind, min: 0, max: 1, tone: () => 'seq', t: (v) => Math.min(1, Math.max(0, v)) };
  }
  let max = 0;
  data.forEach((v, k) => {
    if (Number.isFinite(v) && include(k)) max = Math.max(max, Math.abs(v));
  });
  const safeMax = max > 0 ? max : 1;
  return {
    kind: 'signed',
    min: -max,
    max,
    tone: (v) => (v < 0 ? 'neg' : 'pos'),
    t: (v) => (Number.isFinite(v) ? Math.min(1, Math.abs(v) / safeMax) : 0),
  };
}

// A gradient interpolates in sRGB while the cells mix in oklab: nine stops follow the oklab mix
// closely enough, in the figures (whose stops CSS colours) and in a file written without CSS.
const STOPS = 9;

/** The stops of a colour bar from the scale's min (offset 0) to its max (offset 1): [offset, tone, t]. */
export function gradientStops(scale) {
  return Array.from({ length: STOPS }, (_, k) => {
    const offset = k / (STOPS - 1);
    const v = scale.min + offset * (scale.max - scale.min);
    return [offset, scale.tone(v), scale.t(v)];
  });
}

/** Above this intensity the number is drawn in the contrasting ink. */
export const STRONG = 0.58;
