// attention-lab's own builds (wasm-simd, wasm-scalar; one thread or a pool) and the plain-JS loops as benchmark
// contenders of scaled dot-product attention. Shapes: q, dout (B, H, T, d), k, v (B, Hkv, Tk, d); B = 1,
// Hkv = H, Tk = T unless given; sdpaOptions (a window, ...) join the forward's options.
// pass 'forward' returns [y]; 'forwardBackward' runs the forward (as training does, keeping its
// output and log-sum-exps) and the backward given that saved forward, and returns [dq, dk, dv].
import { contender } from './contender.mjs';
import { coreClockOf, withCoreSamples } from './core-clock.mjs';
import { attentionBackward, attentionForward } from '../../../web/measure/plain-js-attention.js';

/**
 * One contender per loaded module (its backend names the form): the synchronous API, or the
 * parallel one (loadAttention({ threads })), whose calls return Promises. A synchronous build with
 * a core clock (core-clock.mjs) also records the core's share of every timed call (coreSamples).
 */
export function attentionLabContenders(modules, { pass, causal, B = 1, H, T, d, inputs, Tk = T, Hkv = H, sdpaOptions = {} }) {
  const shapes = { q: [B, H, T, d], k: [B, Hkv, Tk, d], v: [B, Hkv, Tk, d], dout: [B, H, T, d] };
  const [q, k, v, dout] = ['q', 'k', 'v', 'dout'].map((name) => ({ data: inputs[name], shape: shapes[name] }));
  const options = { causal, ...sdpaOptions };
  const forwardOptions = { causal, returnLse: true };
  const gradients = (g) => [g.dq.data, g.dk.data, g.dv.data];
  return modules.map((attn) => {
    const meta = { library: 'attention-lab', form: attn.backend, threads: attn.threads ?? 1 };
    if (attn.threads === undefined) {
      const run =
        pass === 'forward'
          ? () => [attn.scaledDotProductAttention(q, k, v, options).output.data]
          : () => {
              const saved = attn.scaledDotProductAttention(q, k, v, forwardOptions);
              return gradients(attn.scaledDotProductAttentionBackward(q, k, v, dout, { causal, saved }));
            };
      return synchronous(attn, meta, run);
    }
    const run =
      pass === 'forward'
        ? async () => [(await attn.scaledDotProductAttention(q, k, v, options)).output.data]
        : async () => {
            const saved = await attn.scaledDotProductAttention(q, k, v, forwardOptions);
            return gradients(await attn.scaledDotProductAttentionBackward(q, k, v, dout, { causal, saved }));
          };
    return contender(meta, run);
  });
}

// A contender of a synchronous build, recording each call's core time (when the bench made the
// build's core clock).
function synchronous(attn, meta, run) {
  const clock = coreClockOf(attn);
  return clock ? withCoreSamples(contender(meta, run), clock) : contender(meta, run);
}

/** The plain-JS loops of plain-js-attention.mjs. */
export function plainJsContender({ pass, causal, H, T, d, inputs }) {
  const { q, k, v, dout } = inputs;
  const n = H * T * d;
  const scale = 1 / Math.sqrt(d);
  const forward = () => {
    const y = new Float32Array(n);
    attentionForward(q, k, v, y, H, T, d, scale, causal);
    return y;
  };
  const run =
    pass === 'forward'
      ? () => [forward()]
      : () => {
          forward();
          const [dq, dk, dv] = [0, 1, 2].map(() => new Float32Array(n));
          attentionBackward(q, k, v, dout, dq, dk, dv, H, T, d, scale, causal);
          return [dq, dk, dv];
        };
  return contender({ library: 'plain JS', form: 'loops' }, run);
}
