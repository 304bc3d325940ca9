// TensorFlow.js on its wasm backend (@tensorflow/tfjs + tfjs-backend-wasm, one thread in Node: the
// threaded build needs a cross-origin isolated page) as benchmark contenders.
// Shapes: q, k, v, dout (1, H, T, d). Each call makes its input tensors from the Float32Arrays
// (a copy into wasm memory, as our calls do) and reads the results back with dataSync.
// One form, 'one matMul per head' (an explicit transpose of k, matMul, softmax, matMul), since the
// backend's fast (XNNPACK) matmul serves only batch 1 without transposes: one batched matMul over
// all heads with transposeB is slower (docs/performance.md). Gradients through tf.grads.
import { createRequire } from 'node:module';
import path from 'node:path';
// The union package, as tfjs-backend-wasm's README pairs them: tfjs-core's Node bundle registers
// no gradients (its register_all_gradients is ESM without file extensions, which Node cannot load).
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { additiveCausalMask, contender, unavailable } from './contender.mjs';

let backendReady;

/** The wasm backend with its .wasm files from node_modules (never fetched); also tfjs-transformer.mjs's. */
export function tfjsWasm() {
  backendReady ??= (async () => {
    const require = createRequire(import.meta.url);
    setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + path.sep);
    if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs wasm backend did not start');
    await tf.ready();
  })();
  return backendReady;
}

/** y = softmax(scale q k^T [+ mask]) v for (T, d) tensors. */
function attentionOf(q, k, v, scale, mask) {
  const qs = tf.mul(q, scale);
  let scores = tf.matMul(qs, tf.transpose(k));
  if (mask) scores = tf.add(scores, mask);
  return tf.matMul(tf.softmax(scores), v);
}

/** Contenders for { pass, causal, H, T, d, inputs }. */
export async function tfjsContenders({ pass, causal, H, T, d, inputs }) {
  try {
    await tfjsWasm();
  } catch (error) {
    return [unavailable({ library: 'tfjs-backend-wasm', form: 'any' }, error)];
  }
  const scale = 1 / Math.sqrt(d);
  const mask = causal ? tf.tensor2d(additiveCausalMask(T), [T, T]) : null;
  const n = H * T * d;
  const headOf = (x, h) => tf.tensor2d(x.subarray(h * T * d, (h + 1) * T * d), [T, d]);
  const forward = () => {
    const y = new Float32Array(n);
    for (let h = 0; h < H; h++) y.set(tf.tidy(() => attentionOf(headOf(inputs.q, h), headOf(inputs.k, h), headOf(inputs.v, h), scale, mask).dataSync()), h * T * d);
    return [y];
  };
  const grads = () => {
    const out = [0, 1, 2].map(() => new Float32Array(n));
    const gradFn = tf.grads((a, b, c) => attentionOf(a, b, c, scale, mask));
    for (let h = 0; h < H; h++) {
      tf.tidy(() => {
        const [q, k, v, dout] = ['q', 'k', 'v', 'dout'].map((x) => headOf(inputs[x], h));
        gradFn([q, k, v], dout).forEach((g, i) => out[i].set(g.dataSync(), h * T * d));
      });
    }
    return out;
  };
  return [contender({ library: 'tfjs-backend-wasm', form: 'one matMul per head' }, pass === 'forward' ? forward : grads, undefined, async () => mask?.dispose())];
}
