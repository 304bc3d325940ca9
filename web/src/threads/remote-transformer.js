// loadAttention({ threads }).transformer(config): a transformer kept on one worker of the pool, so
// that training runs off the calling thread. The model lives in that worker's module (worker-main.js
// keeps it by id); its methods are the synchronous model's (train/transformer.js), checked there
// and answered as Promises, with the same TypeError or RangeError for bad input. Like a remote layer
// it belongs to its worker: if that worker dies, the model is gone with it and its calls say so.
import { clonesWhole } from './messages.js';
import { toTensor } from '../boundary/tensor.js';

// Options whose values are tensors: read into plain tensors when a clone would drop them.
const TENSOR_OPTIONS = ['targets', 'lossMask'];

/**
 * A call's arguments as a worker can receive them: values a structured clone would drop (getters,
 * class instances) read here, once, into plain objects and tensors (Float64Array keeps every id
 * exact, so the worker's checks see the values given).
 */
function postable(method, args) {
  if (clonesWhole(args)) return args;
  const fn = `transformer.${method}`;
  const plain = (value, name) => (clonesWhole(value) ? value : toTensor(value, `${fn}: ${name}`, Float64Array));
  if (method === 'setParameters' && args[0] !== null && typeof args[0] === 'object' && !(args[0] instanceof Map)) {
    const map = args[0];
    return [Object.fromEntries(Object.keys(map).map((name) => [name, plain(map[name], name)]))];
  }
  const [tokens, options] = args;
  const out = [plain(tokens, 'tokens')];
  if (options !== undefined) {
    const copy = options !== null && typeof options === 'object' ? { ...options } : options;
    for (const name of TENSOR_OPTIONS) if (copy?.[name] !== undefined) copy[name] = plain(copy[name], name);
    if (copy?.optimizer !== null && typeof copy?.optimizer === 'object') copy.optimizer = { ...copy.optimizer };
    out.push(copy);
  }
  return out;
}

/**
 * -> a Transformer on the least busy worker: its methods return Promises. Like a remote layer
 * (parallel.js), its identity is (slot, generation, model id): it talks to its own worker only
 * (pool.requestTo), so once that worker died every call rejects, and never reaches a model that a
 * fresh worker in the same slot numbered the same.
 */
export async function remoteTransformer(pool, config) {
  const slot = pool.byLoad()[0];
  const generation = await pool.ready(slot);
  const made = await pool.requestTo(slot, generation, { type: 'transformer', config: clonesWhole(config) ? config : { ...config } });
  const send = pool.pinned(
    slot,
    generation,
    ({ method }, cause) =>
      new Error(`transformer.${method}: this model was lost with its worker (the worker died and the pool replaced it); create the model again`, { cause }),
  );
  const request = (method, args) => send({ type: 'transformerCall', model: made.model, method, args });
  let disposed = false;
  let steps = 0; // counted here: the model answers only on its worker
  const call =
    (method) =>
    async (...args) => {
      if (disposed) throw new Error(`transformer.${method}: this model was disposed`);
      return request(method, postable(method, args));
    };
  const trainStep = call('trainStep');
  return Object.freeze({
    config: Object.freeze(made.config),
    parameterCount: made.parameterCount,
    layout: Object.freeze(made.layout.map((p) => Object.freeze({ name: p.name, shape: Object.freeze(p.shape) }))),
    get steps() {
      return steps;
    },
    forward: call('forward'),
    gradients: call('gradients'),
    async trainStep(...args) {
      const result = await trainStep(...args);
      steps += 1;
      return result;
    },
    parameters: call('parameters'),
    setParameters: call('setParameters'),
    /** Frees the model on its worker; later calls reject here. A lost model has nothing left to free. */
    async dispose() {
      if (disposed) return;
      disposed = true;
      if (!pool.lives(slot, generation)) return;
      await request('dispose', []);
    },
  });
}
