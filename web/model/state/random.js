// Seeded pseudo-random values, so presets and grown matrices are the same on every machine and
// a link reproduces them. mulberry32 (a small, well-mixed 32-bit generator) and Box-Muller.

/** A generator of uniform numbers in [0, 1) from a 32-bit seed. */
export function uniform(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator of normal(0, sd) numbers rounded to `decimals` (short in the URL, easy to read). */
export function normal(seed, { sd = 1, decimals = 2 } = {}) {
  const u = uniform(seed);
  const factor = 10 ** decimals;
  return () => {
    const r = Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
    return Math.round(r * sd * factor) / factor + 0; // + 0 turns -0 into 0
  };
}

/** Mixes a seed with a stream name, so each matrix of a state draws different numbers. */
export function streamSeed(seed, name) {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** A (rows, cols) matrix of seeded normal values. */
export function randomMatrix(seed, name, rows, cols, options) {
  const next = normal(streamSeed(seed, name), options);
  return Array.from({ length: rows }, () => Array.from({ length: cols }, next));
}
