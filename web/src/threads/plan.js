// How one scaled dot-product attention call is split across W workers (pure arithmetic, no I/O).
//
// The call's work is its query rows (b, h, i): B*H heads of Tq rows, flattened in memory order.
// The rows are cut into W contiguous ranges of about equal cost (a row costs the keys it can see,
// so a causal call is cut by area, not by row count), and each range into sub-calls that the core
// can run as they are:
//   whole batches   b..b+nB, all heads, all rows       (the whole call is one of these)
//   heads of one b  h..h+nH, all rows: whole kv groups (Hkv' = nH / g), or inside one group
//                   (Hkv' = 1), where g = H / Hkv query heads share a kv head
//   rows of a head  i0..i0+rows of one (b, h)           (only when there are fewer heads than workers,
//                   or a range starts or ends inside a head)
// Every sub-call is a smaller (B', H', Hkv', Tq', Tk') attention over contiguous slices of q, k, v
// and the outputs; masks follow by offsetting validLens and attnMask. Forward sub-calls write
// disjoint outputs; backward sub-calls write disjoint dq, and dk, dv partials that the caller
// sums where two sub-calls share a kv head (their order of summation is the only difference
// from a single-threaded call).
//
// Rows of a causal head: the core's Causal codes are relative to the sub-call's own (Tq', Tk'),
// so a block of rows i0..i1 of a causal head becomes a bottom-right causal call over the first
// Tk' keys, with Tk' - Tq' equal to the block's diagonal offset:
//   top-left      j <= i           -> Tk' = i1 (rows i >= Tk - 1 see every key: a plain block)
//   bottom-right  j <= i + Tk - Tq -> Tk' = i1 + Tk - Tq (Tk' < 1: every row fully masked,
//                                     nothing to compute: zero output, lse -Infinity)
// That changes the width of the (Tq, Tk) outputs and, in d2l mode (maskFill), the number of keys a
// fully masked row spreads over, so with weights, trace or maskFill a causal call is cut between
// heads only. Dropout's keep mask is a function of the global (b, h, i, j): such a call runs whole.

const NONE = 0;
const TOP_LEFT = 1;
const BOTTOM_RIGHT = 2;

/** Keys query row i sees under `causal` (other masks ignored): the cost model of a row. */
function visibleKeys(causal, i, Tq, Tk) {
  if (causal === TOP_LEFT) return Math.min(Tk, i + 1);
  if (causal === BOTTOM_RIGHT) return Math.max(0, Math.min(Tk, i + 1 + Tk - Tq));
  return Tk;
}

/** Cumulative cost of the rows of one head: cost[i] = cost of rows 0..i-1 (a row also costs 1 for its own output). */
function rowCostPrefix(causal, Tq, Tk) {
  const prefix = new Float64Array(Tq + 1);
  for (let i = 0; i < Tq; i++) prefix[i + 1] = prefix[i] + visibleKeys(causal, i, Tq, Tk) + 1;
  return prefix;
}

/** The first i with prefix[i] >= target (binary search over the non-decreasing prefix). */
function rowAtCost(prefix, target) {
  let low = 0;
  let high = prefix.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (prefix[mid] < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The flattened rows [0, B*H*Tq) cut into at most `parts` non-empty contiguous ranges [start, end)
 * of about equal cost; with wholeHeads, cuts fall between heads only.
 */
export function rowRanges({ B, H, Tq, Tk }, causal, parts, wholeHeads) {
  const heads = B * H;
  const cuts = [0];
  if (wholeHeads) {
    for (let w = 1; w < parts; w++) cuts.push(Math.round((w * heads) / parts) * Tq);
  } else {
    const prefix = rowCostPrefix(causal, Tq, Tk);
    const headCost = prefix[Tq];
    for (let w = 1; w < parts; w++) {
      const target = (w * heads * headCost) / parts;
      const head = Math.min(heads - 1, Math.floor(target / headCost));
      cuts.push(head * Tq + rowAtCost(prefix, target - head * headCost));
    }
  }
  cuts.push(heads * Tq);
  const ranges = [];
  for (let w = 0; w < parts; w++) {
    const start = Math.max(cuts[w], ranges.length ? ranges[ranges.length - 1][1] : 0);
    if (cuts[w + 1] > start) ranges.push([start, cuts[w + 1]]);
  }
  return ranges;
}

/** Whole heads [first, end) (flattened b * H + h) as sub-call pieces: whole batches, whole kv groups, or inside one group. */
function headPieces({ H, Hkv }, first, end, pieces) {
  const g = H / Hkv;
  let head = first;
  while (head < end) {
    const b = Math.floor(head / H);
    const h = head - b * H;
    if (h === 0 && end - head >= H) {
      const nB = Math.floor((end - head) / H);
      pieces.push({ b, nB, h: 0, nH: H, kv: 0, nKv: Hkv, i0: 0, rows: null });
      head += nB * H;
      continue;
    }
    const batchEnd = Math.min(end, (b + 1) * H);
    const groupEnd = (Math.floor(h / g) + 1) * g + b * H;
    if (h % g !== 0 || batchEnd < groupEnd) {
      const nH = Math.min(batchEnd, groupEnd) - head; // inside one group: one kv head
      pieces.push({ b, nB: 1, h, nH, kv: Math.floor(h / g), nKv: 1, i0: 0, rows: null });
      head += nH;
    } else {
      const nH = Math.floor((batchEnd - head) / g) * g; // whole groups of this batch
      pieces.push({ b, nB: 1, h, nH, kv: h / g, nKv: nH / g, i0: 0, rows: null });
      head += nH;
    }
  }
}

/** The flattened rows [start, end) as pieces: { b, nB, h, nH, kv, nKv, i0, rows } (rows null = all Tq). */
export function rangePieces(dims, [start, end]) {
  const { Tq, H, Hkv } = dims;
  const g = H / Hkv;
  const pieces = [];
  const rowsPiece = (head, i0, i1) => {
    const b = Math.floor(head / H);
    const h = head - b * H;
    pieces.push({ b, nB: 1, h, nH: 1, kv: Math.floor(h / g), nKv: 1, i0, rows: i1 - i0 });
  };
  let head = Math.floor(start / Tq);
  const lastHead = Math.floor(end / Tq);
  const firstRow = start - head * Tq;
  const endRow = end - lastHead * Tq;
  if (head === lastHead) {
    rowsPiece(head, firstRow, endRow);
    return pieces;
  }
  if (firstRow > 0) rowsPiece(head++, firstRow, Tq);
  headPieces(dims, head, lastHead, pieces);
  if (endRow > 0) rowsPiece(lastHead, 0, endRow);
  return pieces;
}

/**
 * A piece as sub-calls: { piece fields, Tq' rows, Tk' keys, causal code, skip }. A causal block of
 * rows becomes bottom-right over Tk' keys (see the top of this file); a top-left block that reaches
 * row Tk - 1 splits there, since the rows below see every key.
 */
function subCalls(dims, causal, piece) {
  const { Tq, Tk } = dims;
  const whole = { ...piece, i0: 0, rows: Tq, keys: Tk, causal, skip: false };
  if (piece.rows === null) return [whole];
  const block = (i0, i1, keys, code) => ({ ...piece, i0, rows: i1 - i0, keys, causal: code, skip: keys < 1 });
  const i1 = piece.i0 + piece.rows;
  if (causal === NONE) return [block(piece.i0, i1, Tk, NONE)];
  if (causal === BOTTOM_RIGHT) return [block(piece.i0, i1, i1 + Tk - Tq, BOTTOM_RIGHT)];
  const calls = [];
  const diagonalEnd = Math.min(i1, Tk); // top-left rows below this see every key
  if (piece.i0 < diagonalEnd) calls.push(block(piece.i0, diagonalEnd, diagonalEnd, BOTTOM_RIGHT));
  if (i1 > diagonalEnd) calls.push(block(Math.max(piece.i0, diagonalEnd), i1, Tk, NONE));
  return calls;
}

/**
 * The plan of one call for `workers` workers: a list (one entry per worker that gets work) of
 * sub-call lists. dims: { B, H, Hkv, Tq, Tk }; causal: the core's code; rule: { wholeCall, wholeHeads }.
 */
export function planSdpa(dims, causal, workers, { wholeCall, wholeHeads }) {
  const parts = wholeCall ? 1 : workers;
  return rowRanges(dims, causal, parts, wholeHeads).map((range) => rangePieces(dims, range).flatMap((piece) => subCalls(dims, causal, piece)));
}

/**
 * Where a sub-call's tensors sit in the whole call's, in elements: [offset, length] per tensor,
 * for q-shaped (rows x width) and k-shaped (kv rows x width) tensors, the (Tq, Tk) outputs,
 * validLens and the attnMask (its strides from the binding's MaskArgs).
 */
export function subCallSpans({ H, Hkv, Tq, Tk }, mask, call) {
  const firstRow = (call.b * H + call.h) * Tq + call.i0;
  const rowCount = call.nB * call.nH * call.rows;
  const firstKey = (call.b * Hkv + call.kv) * Tk;
  const keyCount = (call.nB * call.nKv - 1) * Tk + call.keys; // keys < Tk only for one (b, kv head)
  const lensPerRow = mask.validLensPerRow;
  return {
    rows: (width) => [firstRow * width, rowCount * width],
    keys: (width) => [firstKey * width, keyCount * width],
    validLens: lensPerRow ? [call.b * Tq + call.i0, call.nB * call.rows] : [call.b, call.nB],
    attnMask: [
      call.b * mask.strideB + call.h * mask.strideH + call.i0 * mask.strideI,
      (call.nB - 1) * mask.strideB + (call.nH - 1) * mask.strideH + (call.rows - 1) * mask.strideI + (call.keys - 1) * mask.strideJ + 1,
    ],
  };
}
