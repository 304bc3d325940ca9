// ALiBi's slopes in a file of their own: masks.js resolves { alibi: true } with them, and the
// model's compute (web/model/compute) uses them without pulling the mask validation into the
// figures' eager code.

/**
 * The ALiBi slopes of Press et al. (2022) for H heads, as their reference code computes them:
 * 2^(-8/n), 2^(-16/n), ... for n = H a power of two; otherwise those of the closest power of two
 * n < H, then every other slope of 2n (its odd-indexed ones, 1-based) until there are H.
 */
export function alibiSlopes(H) {
  const geometric = (n) => Array.from({ length: n }, (_, i) => 2 ** ((-8 * (i + 1)) / n));
  const n = 2 ** Math.floor(Math.log2(H));
  if (n === H) return geometric(H);
  return [
    ...geometric(n),
    ...geometric(2 * n)
      .filter((_, i) => i % 2 === 0)
      .slice(0, H - n),
  ];
}
