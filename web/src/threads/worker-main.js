// The script of each pool worker (pool.js): one wasm module instance of its own and a loop that
// answers requests { id, type, ... } with { id, result } or { id, error: { name, message } }.
//   init         { options }            load the module (simd, wasmUrl, wasmBinary) -> { backend, arch }
//   sdpa         { fn, direction, calls, staging } run sub-calls of a split attention (parallel-sdpa.js)
//   api          { name, args }          run one method of the synchronous API on this worker
//   layer        { name, options }       create a layer, kept here -> { layer: id, config }
//   layerCall    { layer, method, args } call a method of a layer kept here
//   transformer  { config }               create a transformer, kept here -> { model: id, config, parameterCount, layout }
//   transformerCall { model, method, args } call a method of a transformer kept here
// Requests run one after another in arrival order: each is synchronous once the module is loaded.
import { createAttention } from '../api.js';
import { loadModule } from '../boundary/loader.js';
import { scratchFloats, withArena } from '../boundary/memory.js';
import { errorToMessage, transferablesOf } from './messages.js';
import { callEntry } from '../boundary/packed.js';
import { SDPA_SIZES } from '../ops/sdpa-call.js';
import { viewOf } from './staging.js';
import { workerPort } from './worker-port.js';

let loading = null; // Promise<{ runtime, api }>, from the init request
const layers = new Map(); // id -> AttentionLayer
let nextLayer = 1;
const models = new Map(); // id -> Transformer
let nextModel = 1;

/**
 * One sub-call: SdpaArgs over its slices, which sit in `staging` at the places `inputs` names
 * (q, k, v, dout?, validLens?, boolMask?, floatMask?); each output is copied back into `staging`
 * at its place in `outputs`.
 */
function runSubCall(module, fn, direction, staging, { args, inputs, outputs }) {
  const blocks = { scratch: scratchFloats(module, 'sdpaScratchFloats', args, SDPA_SIZES) };
  for (const name of Object.keys(inputs)) blocks[name] = viewOf(staging, inputs[name]);
  for (const name of Object.keys(outputs)) blocks[name] = outputs[name].length;
  withArena(module, fn, blocks, (buffers) => {
    callEntry(module, direction === 'forward' ? 'sdpaForward' : 'sdpaBackward', args, buffers);
    for (const name of Object.keys(outputs)) {
      const start = buffers[name] >>> 2;
      viewOf(staging, outputs[name]).set(module.HEAPF32.subarray(start, start + outputs[name].length));
    }
  });
}

function layerOf(id) {
  const layer = layers.get(id);
  if (layer === undefined) throw new Error(`attention-lab: no layer ${id} on this worker (disposed)`);
  return layer;
}

function modelOf(id) {
  const model = models.get(id);
  if (model === undefined)
    throw new Error(`attention-lab: no transformer ${id} on this worker (disposed, or its worker died and was replaced: its parameters went with it)`);
  return model;
}

const HANDLERS = {
  async init({ options }) {
    loading = loadModule(options).then(({ runtime }) => ({ runtime, api: createAttention(runtime) }));
    const { api } = await loading;
    return { backend: api.backend, arch: api.arch };
  },
  async sdpa({ fn, direction, calls, staging }) {
    const { runtime } = await loading;
    runtime.call(fn, (module) => {
      for (const call of calls) runSubCall(module, fn, direction, staging, call);
    });
    return { staging }; // moved back, outputs inside
  },
  async api({ name, args }) {
    const { api } = await loading;
    return api[name](...args);
  },
  async layer({ name, options }) {
    const { api } = await loading;
    const layer = api[name](options);
    const id = nextLayer++;
    layers.set(id, layer);
    return { layer: id, config: { ...layer.config } };
  },
  async layerCall({ layer, method, args }) {
    await loading;
    const result = layerOf(layer)[method](...args);
    if (method === 'dispose') layers.delete(layer); // later calls fail with "no layer"
    return result;
  },
  async transformer({ config }) {
    const { api } = await loading;
    const model = api.transformer(config);
    const id = nextModel++;
    models.set(id, model);
    const layout = model.layout.map(({ name, shape }) => ({ name, shape: [...shape] }));
    return { model: id, config: { ...model.config }, parameterCount: model.parameterCount, layout };
  },
  async transformerCall({ model, method, args }) {
    await loading;
    const result = modelOf(model)[method](...args);
    if (method === 'dispose') models.delete(model);
    return result;
  },
};

// No top-level await: bundlers build workers as classic scripts by default (Vite: worker.format
// 'iife'), which cannot hold one, and the package must build in an app with no configuration.
workerPort().then((port) =>
  port.onMessage(async ({ id, type, ...request }) => {
    try {
      const result = await HANDLERS[type](request);
      // Results are fresh arrays made here: moved to the caller, not copied.
      port.post({ id, result }, transferablesOf(result));
    } catch (error) {
      port.post({ id, error: errorToMessage(error) });
    }
  }),
);
