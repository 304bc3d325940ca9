// The opt-in multi-threaded API: loadAttention({ threads }) -> ParallelAttention (index.d.ts),
// whose methods return Promises.
//
// Why a pool of workers, each with its own module, and not Emscripten pthreads: pthreads need
// SharedArrayBuffer, which browsers give only to cross-origin isolated pages (COOP + COEP
// headers), and a second (-pthread) build of both modules; the default must keep working on any
// page. Plain workers run everywhere (Web Workers in browsers, worker_threads in Node, the same
// code through worker-spawn.js / worker-port.js), need no special headers or build, and
// attention splits cleanly: query heads and query-row blocks are independent in the forward,
// and in the backward dk, dv only need a sum where workers share a kv head (plan.js).
// The price is copying each worker's slices in and its results out (through recycled staging
// buffers, staging.js: a small part of the arithmetic at sizes worth splitting) and one module's
// memory per worker (npm run bench's 2-thread rows show what it buys).
//
// Calls are checked here, on the calling thread, by the same code as the synchronous API, so
// almost every error is thrown before anything is sent (and is the same error). Small calls run
// inline on this thread's module (a round trip to a worker costs more than their arithmetic);
// large scaledDotProductAttention and dot-product attention calls are split across the workers;
// the other methods run whole on the least busy worker.
import { createAttention } from '../api.js';
import { isNode, loadModule } from '../boundary/loader.js';
import { clonesWhole } from './messages.js';
import { toTensor } from '../boundary/tensor.js';
import { isDetached } from '../boundary/typed.js';
import { parallelContext, parallelSdpaBackward, parallelSdpaForward } from './parallel-sdpa.js';
import { WorkerPool } from './pool.js';
import { remoteTransformer } from './remote-transformer.js';
import { attentionBackwardCall, attentionForwardCall } from '../ops/scoring.js';
import { dOutputTensor, sdpaBackward, sdpaBackwardCall, sdpaForward, sdpaForwardCall } from '../ops/sdpa-call.js';

const MAX_THREADS = 64;
// Multiply-adds (B H Tq Tk (d + dv)) below which a call runs inline: about as long as a round trip
// to a worker takes (docs/performance.md).
const DEFAULT_INLINE_BELOW = 2 ** 20;

const PARALLEL_OPTIONS = ['simd', 'wasmUrl', 'wasmBinary', 'threads', 'inlineBelow'];

function parallelOptions(given) {
  const fn = 'loadAttention';
  const options = Object.create(null); // own options only: nothing read from a polluted prototype
  for (const key of Object.keys(given)) {
    if (!PARALLEL_OPTIONS.includes(key)) throw new TypeError(`${fn}: unknown option '${key}' (known: ${PARALLEL_OPTIONS.join(', ')})`);
    options[key] = given[key];
  }
  const { threads, inlineBelow = DEFAULT_INLINE_BELOW, ...load } = options;
  if (typeof threads !== 'number') throw new TypeError(`${fn}: threads must be an integer in [1, ${MAX_THREADS}], got ${typeof threads} ${String(threads)}`);
  if (!(Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)) {
    throw new RangeError(`${fn}: threads must be an integer in [1, ${MAX_THREADS}], got ${threads}`);
  }
  if (typeof inlineBelow !== 'number' || !(inlineBelow >= 0)) {
    throw new TypeError(`${fn}: inlineBelow must be a number >= 0 (multiply-adds; 0: never inline), got ${String(inlineBelow)}`);
  }
  return { threads, inlineBelow, load };
}

/**
 * Load options a worker can receive: a wasmUrl as an absolute string (URL objects do not clone).
 * Every worker runs the build chosen here (the calling thread's).
 */
function workerLoadOptions(load, backend) {
  const simd = { 'wasm-simd': true, 'wasm-relaxed': 'relaxed', 'wasm-scalar': false }[backend];
  const options = { ...load, simd };
  if (load.wasmUrl !== undefined) {
    const base = isNode() ? undefined : globalThis.location?.href;
    options.wasmUrl = load.wasmUrl instanceof URL || base === undefined ? String(load.wasmUrl) : new URL(load.wasmUrl, base).href;
  }
  return options;
}

/** loadAttention({ threads, inlineBelow?, simd?, wasmUrl?, wasmBinary? }) -> ParallelAttention. */
export async function loadParallelAttention(options) {
  const { threads, inlineBelow, load } = parallelOptions(options);
  const { runtime, backend } = await loadModule(load); // checks the load options before any worker starts
  const pool = await WorkerPool.start(threads, workerLoadOptions(load, backend));
  return createParallelAttention(runtime, pool, inlineBelow);
}

// The tensor arguments of a layer's methods, by position. A layer lives on its worker, so it cannot
// fall back to the calling thread as the API's methods do (onWorker below).
const LAYER_TENSOR_ARGS = { forward: ['x'], backward: ['dOutput'] };

/**
 * A layer call's arguments as a worker can receive them: a tensor that a structured clone would
 * drop (data and shape as getters, a class instance) is read here, once, into a plain tensor,
 * with the synchronous layer's argument name in its errors; setParameters' tensors likewise.
 */
function postable(name, method, args) {
  // A KV cache lives with a synchronous layer (its rows in that module's memory): refused by name
  // here, where a structured clone would fail on its dispose() with a DataCloneError.
  const options = args[1];
  if (method === 'forward' && typeof options === 'object' && options !== null && Object.hasOwn(options, 'cache') && options.cache !== undefined) {
    throw new TypeError(`${name}.forward: cache: a layer on a worker takes no KV cache (caches are made by the layers of loadAttention() without threads)`);
  }
  // An option holding a typed array whose buffer was transferred (validLens, attnMask's data):
  // named here, where the structured clone would fail with a DataCloneError that names nothing.
  if (typeof options === 'object' && options !== null) {
    for (const key of Object.keys(options)) {
      const value = options[key];
      const data = ArrayBuffer.isView(value) ? value : ArrayBuffer.isView(value?.data) ? value.data : null;
      if (data !== null && !(data instanceof DataView) && isDetached(data)) {
        throw new TypeError(
          `${name}.${method}: ${key}${data === value ? '' : '.data'} is detached: its buffer was transferred (postMessage or structuredClone with transfer) and holds no data`,
        );
      }
    }
  }
  if (clonesWhole(args)) return args;
  const plain = (value, argName) => (clonesWhole(value) ? value : toTensor(value, `${name}.${method}: ${argName}`));
  if (method === 'setParameters' && args[0] !== null && typeof args[0] === 'object') {
    const params = args[0];
    return [Object.fromEntries(Object.keys(params).map((key) => [key, plain(params[key], key)])), ...args.slice(1)];
  }
  return args.map((arg, i) => (LAYER_TENSOR_ARGS[method]?.[i] ? plain(arg, LAYER_TENSOR_ARGS[method][i]) : arg));
}

/**
 * A layer kept on one worker: the AttentionLayer methods, each returning a Promise. Its identity is
 * (slot, generation, layer id): the worker numbers its layers from 1, and a fresh worker in the same
 * slot does so again, so the handle talks to its own worker only (pool.requestTo). Once that
 * worker died, the layer is lost with it: every call rejects, forever, whatever was created since.
 */
async function remoteLayer(pool, name, options) {
  const slot = pool.byLoad()[0];
  const generation = await pool.ready(slot);
  const { layer, config } = await pool.requestTo(slot, generation, { type: 'layer', name, options });
  const send = pool.pinned(
    slot,
    generation,
    ({ method }, cause) =>
      new Error(`${name}.${method}: this layer was lost with its worker (the worker died and the pool replaced it); create the layer again`, { cause }),
  );
  const request = (method, args) => send({ type: 'layerCall', layer, method, args });
  let disposed = false;
  const call =
    (method) =>
    async (...args) => {
      if (disposed) throw new Error(`${name}.${method}: this layer was disposed`);
      return request(method, postable(name, method, args));
    };
  return Object.freeze({
    config: Object.freeze(config),
    forward: call('forward'),
    backward: call('backward'),
    step: call('step'),
    parameters: call('parameters'),
    setParameters: call('setParameters'),
    // Frees the layer on its worker (the worker drops it from its map); later calls reject here.
    // A lost layer has nothing left to free: its dispose() resolves.
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (!pool.lives(slot, generation)) return;
      await request('dispose', []);
    },
  });
}

function createParallelAttention(runtime, pool, inlineBelow) {
  const inline = createAttention(runtime);
  const { backend } = runtime;
  const parallel = parallelContext(pool);
  let disposed = false;
  const alive = (fn) => {
    if (disposed) throw new Error(`${fn}: this parallel attention was disposed`);
  };
  const isSmall = ({ B, H, Tq, Tk, dq, dv }) => B * H * Tq * Tk * (dq + dv) < inlineBelow;
  // Arguments a worker cannot receive whole (a getter, a class instance: a clone drops them) or
  // at all (a function or a Proxy: DataCloneError) run inline, so they work or fail exactly as
  // the synchronous call does.
  const onWorker = async (name, args) => {
    if (!clonesWhole(args)) return inline[name](...args);
    return pool.request(pool.byLoad()[0], { type: 'api', name, args }).catch((error) => {
      if (error?.name === 'DataCloneError') return inline[name](...args);
      throw error;
    });
  };

  const forward = (setup, flags) =>
    isSmall(setup.dims) ? runtime.call(setup.fn, (module) => sdpaForward(module, setup, flags)) : parallelSdpaForward(parallel, setup, flags);
  const backward = (setup, dOutput) =>
    isSmall(setup.dims)
      ? runtime.call(setup.fn, (module) => sdpaBackward(module, setup, dOutput))
      : parallelSdpaBackward(parallel, setup, dOutputTensor(setup.fn, dOutput, setup.dims));

  // Methods that run whole on one worker (the worker checks their arguments).
  const whole =
    (name) =>
    async (...args) => {
      alive(name);
      return onWorker(name, args);
    };

  return Object.freeze({
    backend,
    arch: inline.arch,
    build: inline.build,
    threads: pool.size,
    async scaledDotProductAttention(q, k, v, options) {
      alive('scaledDotProductAttention');
      const { setup, flags } = runtime.call('scaledDotProductAttention', (module) => sdpaForwardCall(module, q, k, v, options));
      return forward(setup, flags);
    },
    async scaledDotProductAttentionBackward(q, k, v, dOutput, options) {
      alive('scaledDotProductAttentionBackward');
      return backward(
        runtime.call('scaledDotProductAttentionBackward', (module) => sdpaBackwardCall(module, q, k, v, options)),
        dOutput,
      );
    },
    async attention(q, k, v, options) {
      alive('attention');
      const { viaSdpa, setup, flags } = runtime.call('attention', (module) => attentionForwardCall(module, q, k, v, options));
      if (viaSdpa) return forward(setup, flags);
      return isSmall(setup.dims) ? inline.attention(q, k, v, options) : onWorker('attention', [q, k, v, options]);
    },
    async attentionBackward(q, k, v, dOutput, options) {
      alive('attentionBackward');
      const { viaSdpa, setup } = runtime.call('attentionBackward', (module) => attentionBackwardCall(module, q, k, v, options));
      if (viaSdpa) return backward(setup, dOutput);
      if (isSmall(setup.dims)) return inline.attentionBackward(q, k, v, dOutput, options);
      return onWorker('attentionBackward', [q, k, v, dOutput, options]);
    },
    maskedSoftmax: whole('maskedSoftmax'),
    maskedSoftmaxBackward: whole('maskedSoftmaxBackward'),
    rope: whole('rope'),
    ropeBackward: whole('ropeBackward'),
    async selfAttention(options) {
      alive('selfAttention');
      return remoteLayer(pool, 'selfAttention', options);
    },
    async multiHeadAttention(options) {
      alive('multiHeadAttention');
      return remoteLayer(pool, 'multiHeadAttention', options);
    },
    async transformer(config) {
      alive('transformer');
      return remoteTransformer(pool, config);
    },
    /** Terminates the workers; calls made afterwards reject. */
    dispose() {
      disposed = true;
      pool.dispose();
    },
  });
}
