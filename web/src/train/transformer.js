// attn.transformer(config): a decoder-only transformer that lives in wasm memory and trains there
// (cpp/include/attnlab/transformer.hpp through cpp/bindings/transformer.cpp). The model holds a
// handle into the module that made it: its parameters, gradients and AdamW moments stay in one
// block between calls (parameters() and setParameters copy out of and into it; a training step
// copies nothing but the batch), and a workspace for the largest batch seen. dispose() frees both;
// a model dropped without it is freed when the garbage collector finalizes it. A trap resets the
// module and takes the model with it: its methods then say so.
//   forward(tokens)        tokens (B, T) -> logits (B, T, V) [+ trace: attentions (B, L, H, T, T), residual L x (B, T, d)]
//   gradients(tokens)      -> { loss, gradients }: mean cross-entropy and every parameter's gradient
//   trainStep(tokens)      -> { loss }: the same, then one AdamW step (torch.optim.AdamW's defaults)
import { callBinding, expectAllocatable, recordHolding, releaseHolding, withArena } from '../boundary/memory.js';
import { callQuery } from '../boundary/packed.js';
import { tensor } from '../boundary/tensor.js';
import { booleanOption, expectKnownOptions, firstNonFinite } from '../boundary/validate.js';
import { lossTargets, tokenBatch } from './batch.js';
import { transformerConfig } from './config.js';
import { adamwOptions } from './optimizer.js';
import { checkedParameters, parseLayout, readParameters } from './parameters.js';

// The binding's ModelCallArgs with nothing given (addresses 0, torch.optim.AdamW's defaults).
const NO_CALL = Object.freeze({
  handle: 0,
  B: 1,
  T: 1,
  tokens: 0,
  targets: 0,
  lossMask: 0,
  logits: 0,
  attentions: 0,
  residual: 0,
  learningRate: 1e-3,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 1e-2,
  clip: 0,
});

// A model dropped without dispose(): its block freed once the garbage collector finalizes it.
const FREED = new FinalizationRegistry((held) => destroy(held));

function destroy(held) {
  if (held.handle === 0) return;
  releaseHolding(held.module, held);
  try {
    held.module.transformerDestroy(held.handle);
  } catch {
    // a module that trapped since: its memory is discarded with it
  }
  held.handle = 0;
}

/** A new model of `config` on `runtime`'s live module, seeded (config.seed, default 0). */
export function createTransformer(runtime, config) {
  const fn = 'transformer';
  const { args, config: shown } = transformerConfig(fn, config);
  return runtime.call(fn, (module) => {
    const count = callBinding(module, () => callQuery(module, 'transformerParameterCount', args));
    // parameters, gradients and the two moments: one block of 4 floats per parameter
    expectAllocatable(module, `transformer (${count} parameters, with gradients and AdamW moments)`, count * 16);
    const handle = callBinding(module, () => callQuery(module, 'transformerCreate', args));
    const layout = parseLayout(module.transformerLayout(handle));
    // bytes and model: its entry in the module's ledger of memory held between calls (memory.js)
    const held = { module, handle, layout, count, config: shown, workspace: 0, steps: 0, disposed: false, bytes: count * 16, model: true };
    recordHolding(module, held);
    // The binding counts before it allocates, the core lays out after: both lists must agree.
    if (layout.reduce((sum, p) => sum + p.size, 0) !== count) {
      destroy(held);
      throw new Error(`${fn}: the binding counted ${count} parameters but the core laid out others (a bug: please report it)`);
    }
    return modelObject(runtime, held);
  });
}

function modelObject(runtime, held) {
  const { layout, count, config } = held;
  const name = (method) => `transformer.${method}`;

  /** Runs body(module) on the model's module: refused once disposed or after a trap reset the module. */
  const run = (method, body) =>
    runtime.call(name(method), (module) => {
      if (held.disposed) throw new Error(`${name(method)}: this model was disposed`);
      if (module !== held.module || held.handle === 0) {
        throw new Error(
          `${name(method)}: the wasm module trapped and was reset since this model was made, and its parameters went with it; make a new model (setParameters() restores saved parameters())`,
        );
      }
      return body(module);
    });

  const callArgs = (B, T, buffers, extra) => ({ ...NO_CALL, ...extra, handle: held.handle, B, T, ...buffers });

  /** Makes sure the core can grow its workspace for (B, T) (a failed allocation there would abort). */
  function reserveWorkspace(module, fn, B, T) {
    const floats = callQuery(module, 'transformerWorkspaceFloats', callArgs(B, T, {}));
    if (floats <= held.workspace) return;
    if (!Number.isFinite(floats)) {
      throw new RangeError(`${fn}: a batch of ${B} x ${T} needs more than one wasm allocation (2 GiB) for its activations: use a smaller batch`);
    }
    expectAllocatable(module, `${fn} on a batch of ${B} x ${T} (its activations)`, floats * 4);
    held.workspace = floats;
    held.bytes = count * 16 + floats * 4;
  }

  /** Runs a loss entry ('transformerBackward' or 'transformerTrainStep') on a checked batch -> loss. */
  function lossCall(module, fn, entry, tokens, opts, extra) {
    const batch = tokenBatch(fn, tokens, config);
    const { targets, lossMask } = lossTargets(fn, batch, opts, config.vocab);
    const blocks = { tokens: batch.data, targets, lossMask };
    return withArena(module, fn, blocks, (buffers) => {
      reserveWorkspace(module, fn, batch.B, batch.T);
      const addresses = { tokens: buffers.tokens, targets: buffers.targets, lossMask: buffers.lossMask };
      return callQuery(module, entry, callArgs(batch.B, batch.T, addresses, extra));
    });
  }

  const heapBase = (module) => module.transformerParameterAddress(held.handle) >>> 2; // float index

  const model = {
    /** The configuration, as checked (kvHeads, gelu, seed filled in). */
    config,
    /** Parameters, counted once (a tied model's embedding once). */
    parameterCount: count,
    /** [{ name, shape }] in state_dict order (a tied model's unembed.weight is tok.weight). */
    layout: Object.freeze(layout.map((p) => Object.freeze({ name: p.name, shape: Object.freeze([...p.shape]) }))),
    /** AdamW steps taken. */
    get steps() {
      return held.steps;
    },

    forward(tokens, options) {
      return run('forward', (module) => {
        const fn = name('forward');
        const opts = expectKnownOptions(fn, options, ['trace']);
        const traced = booleanOption(fn, opts, 'trace');
        const { data, B, T } = tokenBatch(fn, tokens, config);
        const { layers: L, heads: H, dModel: d, vocab: V } = config;
        const blocks = { tokens: data, logits: B * T * V, attentions: traced ? B * L * H * T * T : null, residual: traced ? L * B * T * d : null };
        return withArena(module, fn, blocks, (buffers, read) => {
          reserveWorkspace(module, fn, B, T);
          const addresses = { tokens: buffers.tokens, logits: buffers.logits, attentions: buffers.attentions, residual: buffers.residual };
          callQuery(module, 'transformerForward', callArgs(B, T, addresses));
          const logits = read('logits');
          if (firstNonFinite(logits) >= 0) throw overflowError(fn);
          const result = { logits: tensor(logits, [B, T, V]) };
          if (traced) {
            const residual = read('residual');
            result.trace = {
              attentions: tensor(read('attentions'), [B, L, H, T, T]),
              residual: Array.from({ length: L }, (_, i) => tensor(residual.slice(i * B * T * d, (i + 1) * B * T * d), [B, T, d])),
            };
          }
          return result;
        });
      });
    },

    gradients(tokens, options) {
      return run('gradients', (module) => {
        const fn = name('gradients');
        const opts = expectKnownOptions(fn, options, ['targets', 'lossMask']);
        const loss = lossCall(module, fn, 'transformerBackward', tokens, opts, {});
        const base = heapBase(module) + count;
        if (!Number.isFinite(loss) || module.firstNonFinite(base * 4, count) >= 0) throw overflowError(fn, loss);
        const gradients = {};
        for (const p of layout) gradients[p.name] = tensor(module.HEAPF32.slice(base + p.offset, base + p.offset + p.size), p.shape);
        return { loss, gradients };
      });
    },

    trainStep(tokens, options) {
      return run('trainStep', (module) => {
        const fn = name('trainStep');
        const opts = expectKnownOptions(fn, options, ['targets', 'lossMask', 'optimizer']);
        const optimizer = adamwOptions(fn, opts.optimizer);
        const loss = lossCall(module, fn, 'transformerTrainStep', tokens, opts, optimizer);
        if (!Number.isFinite(loss)) {
          throw new RangeError(
            `${fn}: the loss or a gradient is not finite (loss ${loss}); nothing changed: the parameters and the AdamW state are those after step ${held.steps} (lower optimizer.learningRate, or set clip)`,
          );
        }
        held.steps += 1;
        return { loss };
      });
    },

    /** name -> tensor: copies of the parameters, the PyTorch state_dict's names, shapes and layouts. */
    parameters() {
      return run('parameters', (module) => readParameters(module.HEAPF32, heapBase(module), layout, config.tie));
    },

    /** Replaces every parameter (the AdamW state is kept, as load_state_dict keeps an optimizer's). */
    setParameters(map) {
      const fn = name('setParameters');
      run('setParameters', (module) => {
        const checked = checkedParameters(fn, map, layout, config.tie);
        // the map's getters ran user code, which may have disposed the model
        if (held.disposed) throw new Error(`${fn}: this model was disposed while its parameters were read`);
        const base = heapBase(module);
        for (const { offset, data } of checked) module.HEAPF32.set(data, base + offset);
      });
    },

    /** Frees the model's wasm memory now; later calls throw. Idempotent. */
    dispose() {
      if (held.disposed) return;
      held.disposed = true;
      destroy(held);
      FREED.unregister(model);
    },
  };
  Object.freeze(model);
  FREED.register(model, held, model);
  return model;
}

/** The RangeError for a result that is not finite although every input was. */
function overflowError(fn, loss) {
  const what = loss === undefined ? 'the logits' : Number.isFinite(loss) ? 'a gradient' : `the loss (${loss})`;
  return new RangeError(`${fn}: ${what} overflowed float32 (|value| > 3.4e38) for these tokens and the model's parameters; scale the parameters down`);
}
