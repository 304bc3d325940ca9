// The few float64 matrix operations a check recomputes a hand calculation with: small matrices as
// rows of numbers (R, C), never the API (a student's numbers are not float32, and the mistakes
// below are not operations the API has).

/** (R, K) x (K, C) -> (R, C), or null when the inner sizes differ. */
export function matmul(a, b) {
  if (a[0].length !== b.length) return null;
  return a.map((row) => b[0].map((_, j) => row.reduce((sum, x, t) => sum + x * b[t][j], 0)));
}

/** (R, C) -> (C, R). */
export const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

/** f applied to every entry: f(x, i, j). */
export const mapCells = (m, f) => m.map((row, i) => row.map((x, j) => f(x, i, j)));

/** Softmax of each row; -Infinity entries get 0, a row of them all 0. */
export function softmaxRows(m) {
  return m.map((row) => {
    const max = Math.max(...row);
    if (max === -Infinity) return row.map(() => 0);
    const e = row.map((x) => Math.exp(x - max));
    const sum = e.reduce((s, x) => s + x, 0);
    return e.map((x) => x / sum);
  });
}

/** Softmax of each column. */
export const softmaxColumns = (m) => transpose(softmaxRows(transpose(m)));

/** Whether two matrices have the same (R, C). */
export const sameShape = (a, b) => Boolean(a && b) && a.length === b.length && a[0].length === b[0].length;

/** Every entry rounded to `decimals` places (what rounding an intermediate by hand does). */
export const roundCells = (m, decimals) => mapCells(m, (x) => (Number.isFinite(x) ? Number(x.toFixed(decimals)) : x));
