// The bench's transformer (tools/model/transformer.py's, learned positions, erf GELU) in
// TensorFlow.js on its wasm backend (one thread in Node), trained as ours: next-token
// cross-entropy, Adam with decoupled weight decay (tf.train.adam, then p -= lr wd p: AdamW's
// update), the same batches. tfjs-layers has no attention layer, so the model is its ops
// (the embedding as a one-hot product, LayerNorm from moments, dense matMuls, causal softmax attention) under
// tf.variableGrads-based minimize.
import * as tf from '@tensorflow/tfjs';
import { tfjsWasm } from './peer-tfjs.mjs';

const uniform = (shape, fanIn) => tf.variable(tf.randomUniform(shape, -1 / Math.sqrt(fanIn), 1 / Math.sqrt(fanIn), 'float32', 1));

/** Parameters of { vocab, dModel, layers, heads, maxLength, mlp } as tf.Variables. */
function parameters({ vocab: V, dModel: d, layers: L, maxLength, mlp }) {
  const p = { tok: tf.variable(tf.randomNormal([V, d], 0, 1, 'float32', 1)), pos: tf.variable(tf.randomNormal([maxLength, d], 0, 1, 'float32', 2)), layers: [] };
  for (let i = 0; i < L; i++) {
    const layer = {
      g: tf.variable(tf.ones([d])), b: tf.variable(tf.zeros([d])),
      wqkv: uniform([d, 3 * d], d), bqkv: uniform([3 * d], d), wo: uniform([d, d], d), bo: uniform([d], d),
    };
    if (mlp > 0) Object.assign(layer, { g2: tf.variable(tf.ones([d])), b2: tf.variable(tf.zeros([d])), w1: uniform([d, mlp], d), b1: uniform([mlp], d), w2: uniform([mlp, d], mlp), bb2: uniform([d], mlp) });
    p.layers.push(layer);
  }
  Object.assign(p, { g: tf.variable(tf.ones([d])), b: tf.variable(tf.zeros([d])), wu: uniform([d, V], d), bu: uniform([V], d) });
  return p;
}

function layerNorm(x, g, b) {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), g), b);
}

const gelu = (x) => tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2))));

/** The mean next-token cross-entropy of tokens (B, T) (int32 tensor) under parameters p. */
function loss(p, tokens, targets, { vocab: V, dModel: d, heads: H }, B, T, mask) {
  const N = B * T;
  const dh = d / H;
  // the embedding as a one-hot product: gather's gradient (UnsortedSegmentSum) has no wasm kernel
  let x = tf.add(tf.reshape(tf.matMul(tf.oneHot(tf.reshape(tokens, [N]), V), p.tok), [B, T, d]), tf.slice(p.pos, [0, 0], [T, d]));
  x = tf.reshape(x, [N, d]);
  const heads = (t) => tf.transpose(tf.reshape(t, [B, T, H, dh]), [0, 2, 1, 3]);
  for (const l of p.layers) {
    const a = layerNorm(x, l.g, l.b);
    const [q, k, v] = tf.split(tf.add(tf.matMul(a, l.wqkv), l.bqkv), 3, 1);
    const scores = tf.add(tf.mul(tf.matMul(heads(q), heads(k), false, true), 1 / Math.sqrt(dh)), mask);
    const o = tf.reshape(tf.transpose(tf.matMul(tf.softmax(scores), heads(v)), [0, 2, 1, 3]), [N, d]);
    x = tf.add(x, tf.add(tf.matMul(o, l.wo), l.bo));
    if (l.w1) x = tf.add(x, tf.add(tf.matMul(gelu(tf.add(tf.matMul(layerNorm(x, l.g2, l.b2), l.w1), l.b1)), l.w2), l.bb2));
  }
  const logits = tf.reshape(tf.add(tf.matMul(layerNorm(x, p.g, p.b), p.wu), p.bu), [B, T, V]);
  const predicted = tf.reshape(tf.slice(logits, [0, 0, 0], [B, T - 1, V]), [B * (T - 1), V]);
  return tf.losses.softmaxCrossEntropy(tf.oneHot(targets, V), predicted);
}

/**
 * Training steps per second of `model` over `batches` ({ data: Int32Array, shape: [B, T] }):
 * `steps` timed after 1 warm-up step. -> { rate, version, losses: the loss of the first and the
 * last step (that it trains) } or { error }.
 */
export async function tfjsStepsPerSecond(model, batches, steps) {
  try {
    await tfjsWasm();
  } catch (error) {
    return { error: error.message };
  }
  const [B, T] = batches[0].shape;
  const p = parameters(model);
  const variables = [p.tok, p.pos, ...p.layers.flatMap((l) => Object.values(l)), p.g, p.b, p.wu, p.bu];
  const learningRate = 3e-3;
  const adam = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
  const mask = tf.tensor2d(Array.from({ length: T * T }, (_, n) => (n % T <= Math.floor(n / T) ? 0 : -1e9)), [T, T]);
  const inputs = batches.map((b) => {
    const targets = Array.from({ length: B * (T - 1) }, (_, n) => b.data[Math.floor(n / (T - 1)) * T + (n % (T - 1)) + 1]);
    return { tokens: tf.tensor2d(b.data, [B, T], 'int32'), targets: tf.tensor1d(targets, 'int32') };
  });
  // One step; with `cost`, -> its loss (read back, so only for the first and last steps).
  const step = (i, cost = false) => {
    const { tokens, targets } = inputs[i % inputs.length];
    return tf.tidy(() => {
      const value = adam.minimize(() => loss(p, tokens, targets, model, B, T, mask), cost, variables);
      for (const v of variables) v.assign(tf.mul(v, 1 - learningRate * 0.01)); // decoupled weight decay
      return cost ? value.dataSync()[0] : undefined;
    });
  };
  const first = step(0, true); // the warm-up step: it compiles the backend's kernels
  const start = performance.now();
  for (let i = 0; i < steps - 1; i++) step(i);
  const last = step(steps - 1, true);
  const seconds = (performance.now() - start) / 1000;
  tf.dispose([...variables, mask, ...inputs.flatMap((x) => [x.tokens, x.targets])]);
  adam.dispose();
  return { rate: steps / seconds, version: tf.version.tfjs, losses: [first, last] };
}
