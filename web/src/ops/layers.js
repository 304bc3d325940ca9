// Attention layers. Weights, gradients and the forward cache live in JS typed arrays; forward and
// backward call the core's stateless layer functions through one arena per call, so a layer
// holds no wasm memory of its own; dispose() drops its JS state and frees its KV caches' rows.
//   selfAttention       x (B, T, d_in) -> (B, T, d_out): one head, Q = X Wq, K = X Wk, V = X Wv
//   multiHeadAttention  x (B, T, dModel) -> (B, T, dModel): H heads of width dModel / H over
//                       Hkv kv heads, concatenated, then Wo
import { cacheOwner, cacheState, commitRows, createCache, disposeCaches, pendingRows, reserveRows, weightsChanged } from './kv-cache.js';
import { causalCode, resolveMask } from '../boundary/masks.js';
import { NO_BUFFERS } from '../boundary/buffers.js';
import { callBinding, withArena } from '../boundary/memory.js';
import { expectNoOverflow } from '../boundary/overflow.js';
import { callEntry, callQuery } from '../boundary/packed.js';
import { formatShape, tensor } from '../boundary/tensor.js';
import { copyOf } from '../boundary/typed.js';
import {
  booleanOption,
  expectAxes,
  expectKnownOptions,
  expectSameShape,
  inputTensor,
  learningRateOption,
  numberOption,
  ropeBaseOption,
  scaleOption,
} from '../boundary/validate.js';

const STREAM = { wq: 0, wk: 1, wv: 2, wo: 3 }; // init_weights stream per matrix: same seed, different weights

const positiveInteger = (x) => Number.isSafeInteger(x) && x > 0;

function sizeOption(fn, options, key, fallback) {
  return numberOption(fn, options, key, fallback, positiveInteger, 'a positive integer');
}

/**
 * Weight axes of a layer, [letter, size] per axis: wq (d_in, H d_q), wk (d_in, Hkv d_q),
 * wv (d_in, Hkv d_v), wo (H d_v, d_out) when the layer has an output projection.
 */
function weightAxes(d) {
  const times = (n, letter) => (n === 1 ? letter : `${n} ${letter}`);
  const axes = {
    wq: [
      ['d_in', d.dIn],
      [times(d.heads, 'd_q'), d.heads * d.dQ],
    ],
    wk: [
      ['d_in', d.dIn],
      [times(d.kvHeads, 'd_q'), d.kvHeads * d.dQ],
    ],
    wv: [
      ['d_in', d.dIn],
      [times(d.kvHeads, 'd_v'), d.kvHeads * d.dV],
    ],
  };
  if (d.dOut > 0)
    axes.wo = [
      [times(d.heads, 'd_v'), d.heads * d.dV],
      ['d_out', d.dOut],
    ];
  return axes;
}

const shapeOf = (axes) => axes.map(([, size]) => size);

/** Given weights (checked, copied so the layer owns them) plus seeded Xavier init for the rest. */
function initialWeights(module, fn, axes, given, seed) {
  const weights = {};
  const missing = {};
  for (const [name, nameAxes] of Object.entries(axes)) {
    if (given[name] === undefined || given[name] === null) {
      missing[name] = nameAxes[0][1] * nameAxes[1][1];
      continue;
    }
    const t = inputTensor(fn, name, given[name]);
    expectAxes(fn, name, t, nameAxes);
    weights[name] = copyOf(t.data);
  }
  if (Object.keys(missing).length > 0) {
    withArena(module, fn, missing, (buffers, read) => {
      for (const name of Object.keys(missing)) {
        const [fanIn, fanOut] = shapeOf(axes[name]);
        callEntry(module, 'initWeights', { fanIn, fanOut, seed, stream: STREAM[name] }, { ...NO_BUFFERS, w: buffers[name] });
        weights[name] = read(name);
      }
    });
  }
  return weights;
}

/** A tensor in the layer's head layout (B, H, T, width), shown in the rank of x (the head axis only for multi-head). */
function headTensor(data, cache, heads, width, showHeads) {
  const shape = [cache.B, heads, cache.T, width].filter((_, a) => (a !== 0 || cache.rank === 3) && (a !== 1 || showHeads));
  return tensor(data, shape);
}

/**
 * The layer object. dims: the binding's LayerArgs sizes { dIn, dQ, dV, heads, kvHeads, dOut };
 * config: what users see; scale and causal code are resolved.
 */
function createLayer(runtime, kind, dims, config, weights, { scale, causal, positions }) {
  const axes = weightAxes(dims);
  const shapes = Object.fromEntries(Object.entries(axes).map(([name, a]) => [name, shapeOf(a)]));
  const showHeads = kind === 'multiHeadAttention';
  const outWidth = dims.dOut > 0 ? dims.dOut : dims.heads * dims.dV;
  let state = { weights, grads: null, cache: null };

  const alive = (method) => {
    if (state === null) throw new Error(`${kind}.${method}: this layer was disposed`);
    return state;
  };

  const args = (B, T, mask, ropeOffset = 0) => ({ B, T, ...dims, scale, mask, ...positions.rope, ropeOffset, cacheLength: 0, cacheCapacity: 0 });
  const owner = cacheOwner(); // what the layer's KV caches share with it: its weights' version, its live caches

  /** The arena blocks of a layer forward over x (B, T, d_in): input, weights, output and saved q, k, v. */
  const forwardBlocks = (s, xt, B, T, scratch) => ({
    x: xt,
    ...s.weights,
    out: B * T * outWidth,
    q: B * dims.heads * T * dims.dQ,
    k: B * dims.kvHeads * T * dims.dQ,
    v: B * dims.kvHeads * T * dims.dV,
    heads: dims.dOut > 0 ? B * T * dims.heads * dims.dV : null,
    scratch,
  });

  // Each method runs on the runtime's live module (a fresh one after a trap: the layer's state is
  // all in JS, so it carries on).
  const forward = (x, options) => runtime.call(`${kind}.forward`, (module) => forwardOn(module, x, options));
  const backward = (gradOutput) => runtime.call(`${kind}.backward`, (module) => backwardOn(module, gradOutput));
  const step = (learningRate) => runtime.call(`${kind}.step`, (module) => stepOn(module, learningRate));

  function forwardOn(module, x, options) {
    const fn = `${kind}.forward`;
    const s = alive('forward');
    const opts = expectKnownOptions(fn, options, ['validLens', 'trace', 'cache']);
    const xt = inputTensor(fn, 'x', x);
    const rank = xt.shape.length;
    if (rank !== 2 && rank !== 3) {
      throw new RangeError(`${fn}: x must have rank 2 (T, d_in) or 3 (B, T, d_in), got rank ${rank} ${formatShape(xt.shape)}`);
    }
    const axes = rank === 3 ? [['B'], ['T'], ['d_in', dims.dIn]] : [['T'], ['d_in', dims.dIn]];
    const { B = 1, T } = expectAxes(fn, 'x', xt, axes);
    if (opts.cache !== undefined) return forwardWithCache(module, fn, s, xt, B, T, opts);
    const traced = opts.trace === undefined ? true : booleanOption(fn, opts, 'trace');
    const maskOptions = { validLens: opts.validLens, causal, window: positions.window, alibi: positions.alibi };
    const mask = resolveMask(fn, maskOptions, { B, H: dims.heads, Tq: T, Tk: T, axes: [0, 1, 2, 3] });
    const layerArgs = args(B, T, mask.args);
    const scratch = callBinding(module, () => callQuery(module, 'layerScratchFloats', layerArgs));
    const scores = traced ? B * dims.heads * T * T : null;
    const blocks = { ...forwardBlocks(s, xt, B, T, scratch), ...mask.buffers, weights: scores, scores, masked: scores };
    return withArena(module, fn, blocks, (buffers, read) => {
      callEntry(module, 'layerForward', layerArgs, buffers);
      const outShape = rank === 3 ? [B, T, outWidth] : [T, outWidth];
      const output = tensor(read('out'), outShape);
      // The cache owns its arrays (x copied too: the caller may reuse its own).
      const cache = { B, T, rank, outShape, args: layerArgs, maskBuffers: mask.buffers, x: copyOf(xt.data) };
      for (const name of ['q', 'k', 'v']) cache[name] = read(name);
      if (dims.dOut > 0) cache.heads = read('heads');
      s.cache = cache;
      if (!traced) return { output };
      const trace = {
        q: headTensor(cache.q.slice(), cache, dims.heads, dims.dQ, showHeads),
        k: headTensor(cache.k.slice(), cache, dims.kvHeads, dims.dQ, showHeads),
        v: headTensor(cache.v.slice(), cache, dims.kvHeads, dims.dV, showHeads),
        scores: headTensor(read('scores'), cache, dims.heads, T, showHeads),
        masked: headTensor(read('masked'), cache, dims.heads, T, showHeads),
        weights: headTensor(read('weights'), cache, dims.heads, T, showHeads),
        output,
      };
      return { output, trace };
    });
  }

  /**
   * The rows x (B, T, d_in) after the cache's rows, in one core call (layerForwardCached): their
   * q, k, v (rotary positions from the cache's length), k and v appended in place to the cache in
   * wasm memory, attention of the new rows to every held row with bottom-right causal alignment
   * (and the layer's window and ALiBi), concatenation and Wo. The output equals the matching rows
   * of one forward over the whole sequence with a causal mask, up to float32 rounding. The new
   * rows count only once the output and they are checked finite: a failed call leaves the cache
   * as it was.
   */
  function forwardWithCache(module, fn, s, xt, B, T, opts) {
    if (opts.validLens !== undefined) throw new TypeError(`${fn}: validLens cannot be combined with a cache`);
    if (opts.trace === true) throw new TypeError(`${fn}: trace is not available with a cache`);
    const state = cacheState(`${fn}: cache`, opts.cache, owner, B);
    const held = reserveRows(`${fn}: cache`, module, state, B, T);
    const keys = state.length + T;
    const maskOptions = { causal: 'bottom-right', window: positions.window, alibi: positions.alibi };
    const mask = resolveMask(fn, maskOptions, { B, H: dims.heads, Tq: T, Tk: keys, axes: [0, 1, 2, 3] });
    const layerArgs = { ...args(B, T, mask.args, state.length), cacheLength: state.length, cacheCapacity: held.capacity };
    const scratch = callBinding(module, () => callQuery(module, 'layerCachedScratchFloats', layerArgs));
    const blocks = { x: xt, ...s.weights, out: B * T * outWidth, q: B * dims.heads * T * dims.dQ, ...mask.buffers, scratch };
    return withArena(module, fn, blocks, (buffers, read) => {
      callEntry(module, 'layerForwardCached', layerArgs, { ...buffers, k: held.k, v: held.v });
      const out = read('out'); // overflow-checked
      // The new rows, finite unless a projection overflowed float32: checked once, here, so the
      // held rows are never scanned again. (Reported as the output's overflow: same cause.)
      for (const rows of pendingRows(module, state, B, T)) {
        expectNoOverflow(fn, { x: xt }, 'out', rows.k);
        expectNoOverflow(fn, { x: xt }, 'out', rows.v);
      }
      commitRows(state, B, T);
      s.cache = null; // backward() needs a forward over whole sequences
      const outShape = xt.shape.length === 3 ? [B, T, outWidth] : [T, outWidth];
      return { output: tensor(out, outShape) };
    });
  }

  function backwardOn(module, gradOutput) {
    const fn = `${kind}.backward`;
    const s = alive('backward');
    const cache = s.cache;
    if (cache === null) throw new Error(`${fn}: call forward() first (again after step() or setParameters())`);
    const dout = inputTensor(fn, 'gradOutput', gradOutput);
    expectSameShape(fn, 'gradOutput', dout, cache.outShape, 'the output of the last forward()');
    const scratch = callBinding(module, () => callQuery(module, 'layerScratchFloats', cache.args));
    const gradBlocks = Object.fromEntries(Object.keys(shapes).map((name) => [`d${name}`, s.weights[name].length]));
    const blocks = {
      x: cache.x,
      q: cache.q,
      k: cache.k,
      v: cache.v,
      heads: cache.heads,
      dout,
      ...s.weights,
      ...cache.maskBuffers,
      dx: cache.x.length,
      ...gradBlocks,
      scratch,
    };
    return withArena(module, fn, blocks, (buffers, read) => {
      callEntry(module, 'layerBackward', cache.args, buffers);
      const xShape = cache.rank === 3 ? [cache.B, cache.T, dims.dIn] : [cache.T, dims.dIn];
      const result = { dx: tensor(read('dx'), xShape) };
      const grads = {};
      for (const name of Object.keys(shapes)) {
        grads[name] = read(`d${name}`);
        result[`d${name}`] = tensor(grads[name].slice(), shapes[name]);
      }
      s.grads = grads;
      return result;
    });
  }

  function stepOn(module, learningRate) {
    const fn = `${kind}.step`;
    const s = alive('step');
    const lr = learningRateOption(fn, { learningRate });
    if (lr === undefined) throw new TypeError(`${fn}: learningRate is required`);
    if (s.grads === null) throw new Error(`${fn}: call backward() first`);
    const blocks = {};
    for (const name of Object.keys(shapes)) {
      blocks[name] = s.weights[name];
      blocks[`d${name}`] = s.grads[name];
    }
    const stepped = withArena(module, fn, blocks, (buffers, read) => {
      for (const name of Object.keys(shapes)) {
        const stepArgs = { n: s.weights[name].length, learningRate: lr };
        callEntry(module, 'sgdStep', stepArgs, { ...NO_BUFFERS, w: buffers[name], dw: buffers[`d${name}`] });
      }
      // All read (and checked for overflow) before any is kept: a failed step changes no weight.
      return Object.keys(shapes).map((name) => [name, read(name)]);
    });
    for (const [name, w] of stepped) s.weights[name] = w;
    s.cache = null; // the saved forward state belongs to the old weights
    weightsChanged(owner, 'step()');
  }

  function parameters() {
    const s = alive('parameters');
    return Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, tensor(s.weights[name].slice(), shape)]));
  }

  function setParameters(params) {
    const fn = `${kind}.setParameters`;
    const s = alive('setParameters');
    const given = expectKnownOptions(fn, params, Object.keys(shapes));
    const replaced = {};
    for (const [name, value] of Object.entries(given)) {
      const t = inputTensor(fn, name, value);
      expectAxes(fn, name, t, axes[name]);
      replaced[name] = copyOf(t.data);
    }
    Object.assign(s.weights, replaced); // only after every given weight passed its checks
    s.grads = null;
    s.cache = null;
    weightsChanged(owner, 'setParameters()');
  }

  function dispose() {
    state = null;
    disposeCaches(owner);
  }

  function makeCache(options) {
    alive('createCache');
    return createCache(`${kind}.createCache`, owner, dims, options);
  }

  return Object.freeze({
    forward,
    backward,
    step,
    parameters,
    setParameters,
    dispose,
    createCache: makeCache,
    config: Object.freeze(config),
  });
}

const POSITION_OPTIONS = ['window', 'alibi', 'rope'];
const SELF_OPTIONS = ['wq', 'wk', 'wv', 'dIn', 'dQ', 'dOut', 'seed', 'causal', 'scale', ...POSITION_OPTIONS];
const MHA_OPTIONS = ['dModel', 'heads', 'kvHeads', 'causal', 'seed', 'wq', 'wk', 'wv', 'wo', ...POSITION_OPTIONS];

/**
 * The layer's window, alibi and rope options, checked now rather than at the first forward():
 * window and alibi as for the attention functions (boundary/masks.js), rope true or { base, interleaved }
 * on q and k of every head, which needs an even dQ. -> { window, alibi, rope: LayerArgs' rope fields }.
 */
function positionOptions(fn, opts, heads, dQ) {
  const mask = resolveMask(fn, { window: opts.window, alibi: opts.alibi }, { B: 1, H: heads, Tq: 1, Tk: 1, axes: [0, 1, 2, 3] });
  // Kept as checked (copies: a caller's array changed later changes nothing); forward re-checks
  // the slopes against its own Tq + Tk.
  const window = opts.window == null ? undefined : [mask.args.windowLeft, mask.args.windowRight];
  const slopes = mask.buffers.alibiSlopes;
  const alibi = slopes === undefined ? undefined : opts.alibi === true ? true : ownNumbers(opts.alibi, slopes.length);
  const rope = { rope: false, ropeBase: 10000, ropeInterleaved: false }; // LayerArgs' fields
  if (opts.rope !== undefined && opts.rope !== null && opts.rope !== false) {
    const given = opts.rope === true ? undefined : opts.rope;
    if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
      throw new TypeError(`${fn}: rope must be true or { base, interleaved }, got ${typeof given} ${String(given)}`);
    }
    const ropeOpts = expectKnownOptions(`${fn}: rope`, given, ['base', 'interleaved']);
    rope.ropeBase = ropeBaseOption(`${fn}: rope`, ropeOpts);
    rope.ropeInterleaved = booleanOption(`${fn}: rope`, ropeOpts, 'interleaved');
    if (dQ % 2 !== 0) throw new RangeError(`${fn}: rope needs an even query/key width per head, got dQ = ${dQ}`);
    rope.rope = true;
  }
  return { window, alibi, rope };
}

/** The slopes a caller gave (checked by resolveMask) as a plain array of their float64 values. */
function ownNumbers(list, length) {
  return Array.from({ length }, (_, h) => list[h]);
}

/** What config shows of the position options (only those given). */
function positionConfig({ window, alibi, rope }) {
  const shown = {};
  if (window !== undefined) shown.window = [...window];
  if (alibi !== undefined) shown.alibi = alibi === true || alibi === false ? alibi : [...alibi];
  if (rope.rope) shown.rope = { base: rope.ropeBase, interleaved: rope.ropeInterleaved };
  return shown;
}

function seedOption(fn, options) {
  return numberOption(fn, options, 'seed', 0, (x) => Number.isSafeInteger(x) && x >= 0, 'an integer in [0, 2^53)');
}

/** Single-head self-attention (seed 000, seed 004): sizes from the given weights or dIn, dQ, dOut. */
export function selfAttention(runtime, options) {
  const fn = 'selfAttention';
  const opts = expectKnownOptions(fn, options ?? {}, SELF_OPTIONS);
  const given = Object.create(null);
  for (const name of ['wq', 'wk', 'wv']) {
    if (opts[name] !== undefined) given[name] = inputTensor(fn, name, opts[name]);
    if (given[name] && given[name].shape.length !== 2) {
      throw new RangeError(`${fn}: ${name} must have rank 2, got ${formatShape(given[name].shape)}`);
    }
  }
  const { wq, wk, wv } = given;
  const dIn = sizeOption(fn, opts, 'dIn', (wq ?? wk ?? wv)?.shape[0]);
  if (dIn === undefined) throw new TypeError(`${fn}: give the weights wq, wk, wv or the sizes { dIn, dQ, dOut }`);
  const dQ = sizeOption(fn, opts, 'dQ', (wq ?? wk)?.shape[1] ?? dIn);
  const dOut = sizeOption(fn, opts, 'dOut', wv?.shape[1] ?? dIn);
  const seed = seedOption(fn, opts);
  const causal = opts.causal ?? false;
  causalCode(fn, causal); // checked now rather than at the first forward()
  const scale = scaleOption(fn, opts, 1 / Math.sqrt(dQ));
  const positions = positionOptions(fn, opts, 1, dQ);
  const dims = { dIn, dQ, dV: dOut, heads: 1, kvHeads: 1, dOut: 0 };
  const weights = runtime.call(fn, (module) => initialWeights(module, fn, weightAxes(dims), given, seed));
  const config = { kind: fn, dIn, dQ, dOut, causal, scale, seed, ...positionConfig(positions) };
  return createLayer(runtime, fn, dims, config, weights, { scale, causal, positions });
}

/** Multi-head attention with grouped-query kv heads and an output projection Wo (dModel, dModel). */
export function multiHeadAttention(runtime, options) {
  const fn = 'multiHeadAttention';
  if (options === undefined || options === null) throw new TypeError(`${fn}: options { dModel, heads } are required`);
  const opts = expectKnownOptions(fn, options, MHA_OPTIONS);
  const dModel = sizeOption(fn, opts, 'dModel', undefined);
  const heads = sizeOption(fn, opts, 'heads', undefined);
  if (dModel === undefined || heads === undefined) throw new TypeError(`${fn}: dModel and heads are required`);
  const kvHeads = sizeOption(fn, opts, 'kvHeads', heads);
  if (dModel % heads !== 0) throw new RangeError(`${fn}: dModel=${dModel} must be a multiple of heads=${heads}`);
  if (heads % kvHeads !== 0) {
    throw new RangeError(`${fn}: heads=${heads} must be a multiple of kvHeads=${kvHeads} (grouped-query attention)`);
  }
  const dHead = dModel / heads;
  const seed = seedOption(fn, opts);
  const causal = opts.causal ?? false;
  causalCode(fn, causal); // checked now rather than at the first forward()
  const scale = 1 / Math.sqrt(dHead);
  const positions = positionOptions(fn, opts, heads, dHead);
  const dims = { dIn: dModel, dQ: dHead, dV: dHead, heads, kvHeads, dOut: dModel };
  const weights = runtime.call(fn, (module) => initialWeights(module, fn, weightAxes(dims), opts, seed));
  const config = { kind: fn, dModel, heads, kvHeads, dHead, causal, scale, seed, ...positionConfig(positions) };
  return createLayer(runtime, fn, dims, config, weights, { scale, causal, positions });
}
