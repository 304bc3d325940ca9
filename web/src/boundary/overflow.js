// Overflow of float32 intermediates: finite inputs whose products or sums leave float32's range
// (|value| > 3.4e38; q k^T of two 1e20 vectors, a sum of two 2e38 values) come out as Infinity or
// NaN where float64 has a finite answer. Inputs are checked finite on the way in (validate.js),
// so a non-finite main result can only mean such an overflow: it is reported as a RangeError
// naming the call and its inputs, instead of a silent wrong answer.
// Checked: the results a caller uses (output, attention weights, softmax y, every gradient, the
// weights a layer's step leaves).
// Not checked: lse (-Infinity for a row that sees no key) and the trace's scores, masked and
// softcapped (-Infinity where masked), nor a layer's cached projections (intermediates).
// The scan costs one pass over the outputs (in wasm memory with the core's SIMD kernel for results
// read out of an arena, else validate.js's 8-at-a-time test), which are much smaller than the work
// that made them (docs/performance.md).
import { argumentOf, buffersWith } from './buffers.js';
import { firstNonFinite } from './validate.js';

// The results buffers.js marks (wq ... wo are read back only by a layer's step and its seeded
// initialisation, always finite).
const CHECKED = new Set(buffersWith('r'));
const SCORING_PARAMETERS = new Set(buffersWith('p'));

/** "q, k and v": the public names of a call's inputs, from its arena blocks (user tensors { data, shape }). */
function inputNames(fn, blocks) {
  const names = [];
  for (const name of Object.keys(blocks)) {
    const block = blocks[name];
    if (block === null || typeof block !== 'object' || ArrayBuffer.isView(block)) continue;
    if ((fn === 'attention' || fn === 'attentionBackward') && SCORING_PARAMETERS.has(name)) names.push(`params.${name}`);
    else names.push(argumentOf(name));
  }
  if (fn.endsWith('.step')) names.push('learningRate');
  if (fn.includes('.')) names.push("the layer's parameters"); // selfAttention.forward etc.
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
}

/**
 * Throws the overflow RangeError when `data`, the result block `name` of the call `fn` whose arena
 * blocks (memory.js) are `blocks`, holds NaN or an infinity. Blocks outside CHECKED pass unread.
 */
export function expectNoOverflow(fn, blocks, name, data) {
  expectFiniteResult(fn, blocks, name, () => firstNonFinite(data));
}

/**
 * The same with the scan given: firstBad() returns the index of the first NaN or infinity, or -1
 * (memory.js scans its results in wasm memory with the core's SIMD kernel, several times faster
 * than the JS scan).
 */
export function expectFiniteResult(fn, blocks, name, firstBad) {
  if (!CHECKED.has(name) || firstBad() < 0) return;
  throw new RangeError(`${fn}: an intermediate overflowed float32 (|value| > 3.4e38) for these ${inputNames(fn, blocks)}; scale the inputs down`);
}
