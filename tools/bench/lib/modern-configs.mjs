// Issue 12's lines of `npm run bench`: a sliding window and a decode step, B=1 H=8 d=64, one thread,
// ours against onnxruntime-web's fastest equivalents (com.microsoft GroupQueryAttention, which has a
// window and a past KV, and MultiHeadAttention). Run them alone with `npm run bench -- --only "issue 12"`.
//   sliding window  sdpa forward, T = 1024 and 2048 (O(T w): the time should double with T), 256 keys per row (window [255, 0], so causal too):
//                   GroupQueryAttention's local_window_size 256 counts the query's own key
//                   (docs/semantics.md); and MultiHeadAttention with a (T, T) band of -Infinity as its
//                   attention_bias (dense: it pays for every pair). Flops: 4 H d per visible pair,
//                   w (w + 1) / 2 + (T - w) w pairs
//   decode, sdpa    one query row against Tk = 4096 keys, causal 'bottom-right' (all visible):
//                   MultiHeadAttention over the 4096 keys, and GroupQueryAttention with 4095 past
//                   rows and the new one; microseconds per call
//   decode, layer   multiHeadAttention (dModel 512, 8 heads, causal), forward(xNew, { cache }) of one
//                   row after a 4096-row prefill: projections, attention over 4097 keys, Wo. The peer
//                   is MatMul x3 + GroupQueryAttention (past_key, past_value: the prefill's k and v,
//                   computed by onnxruntime itself from the same x and weights) + MatMul. Our cache
//                   grows by one row per timed call (there is no way to rewind it), so the last calls
//                   attend to up to ~1% more keys than the first: a bias against ours, not for it.
//                   The check compares the first call of each, both over exactly 4097 keys.
import { contender, fill } from './contender.mjs';
import { attentionLabContenders } from './local-contenders.mjs';
import { groupQueryAttentionModel, groupQueryAttentionNode } from './onnx-gqa.mjs';
import { floatTensor, int64Tensor, node, onnxModel } from './onnx-model.mjs';
import { multiHeadAttentionBiasModel, multiHeadAttentionModel } from './onnx-attention.mjs';
import { onnxruntimeSessionContender, swapHeadsAndTime } from './peer-onnxruntime.mjs';

const H = 8;
const d = 64;
const T = 4096;
const W = 256;

/** Rows [t0, t1) along axis 2 of x (1, X, Tx, d). */
function timeRows(x, X, Tx, t0, t1) {
  const out = new Float32Array(X * (t1 - t0) * d);
  for (let h = 0; h < X; h++) out.set(x.subarray((h * Tx + t0) * d, (h * Tx + t1) * d), h * (t1 - t0) * d);
  return out;
}

/** The (T, T) additive mask of W keys per row, the query's own and W - 1 before it: 0 visible, -Infinity hidden. */
function bandBias(T) {
  const bias = new Float32Array(T * T).fill(-Infinity);
  for (let i = 0; i < T; i++) bias.fill(0, i * T + Math.max(0, i - W + 1), i * T + i + 1);
  return bias;
}

function windowConfig(modules, T) {
  const n = H * T * d;
  const inputs = { q: fill(n, 1), k: fill(n, 2), v: fill(n, 3) };
  const config = { pass: 'forward', causal: false, H, T, d, inputs, sdpaOptions: { window: [W - 1, 0] } };
  const pairs = (W * (W + 1)) / 2 + (T - W) * W;
  const bsd = (x) => swapHeadsAndTime(x, H, T, d);
  return {
    title: `issue 12 sliding window: sdpa forward, B=1 H=${H} d=${d} T=${T}, ${W} keys per row (window [${W - 1}, 0])`,
    unit: 'GFLOP/s',
    work: 4 * H * d * pairs,
    build: async () => [
      ...attentionLabContenders(modules, config),
      await onnxruntimeSessionContender(
        'MultiHeadAttention + band attention_bias',
        multiHeadAttentionBiasModel({ H, T, d }),
        { q: [bsd(inputs.q), [1, T, H * d]], k: [inputs.k, [1, H, T, d]], v: [inputs.v, [1, H, T, d]], attention_bias: [bandBias(T), [1, 1, T, T]] },
        (out) => [swapHeadsAndTime(out.y.data, T, H, d)],
      ),
      await onnxruntimeSessionContender(
        `GroupQueryAttention, local_window_size ${W}`,
        groupQueryAttentionModel({ H, Hkv: H, S: T, d, window: W }),
        { query: [bsd(inputs.q), [1, T, H * d]], key: [bsd(inputs.k), [1, T, H * d]], value: [bsd(inputs.v), [1, T, H * d]] },
        (out) => [swapHeadsAndTime(out.output.data, T, H, d)],
      ),
    ],
  };
}

function sdpaDecodeConfig(modules) {
  const inputs = { q: fill(H * d, 1), k: fill(H * T * d, 2), v: fill(H * T * d, 3) };
  const config = { pass: 'forward', causal: 'bottom-right', H, T: 1, Tk: T, d, inputs };
  const past = (x) => timeRows(x, H, T, 0, T - 1);
  const last = (x) => timeRows(x, H, T, T - 1, T); // (1, H, 1, d) is already (1, 1, H d)
  return {
    title: `issue 12 decode step: sdpa, B=1 H=${H} d=${d} Tq=1 Tk=${T}, causal bottom-right`,
    unit: 'us/call',
    work: 1,
    build: async () => [
      ...attentionLabContenders(modules, config),
      await onnxruntimeSessionContender(
        'MultiHeadAttention',
        multiHeadAttentionModel({ H, T: 1, Tk: T, d, causal: false }),
        { q: [inputs.q, [1, 1, H * d]], k: [inputs.k, [1, H, T, d]], v: [inputs.v, [1, H, T, d]] },
        (out) => [out.y.data],
      ),
      await onnxruntimeSessionContender(
        `GroupQueryAttention, past ${T - 1} + 1`,
        groupQueryAttentionModel({ H, Hkv: H, S: 1, P: T - 1, d }),
        {
          query: [inputs.q, [1, 1, H * d]],
          key: [last(inputs.k), [1, 1, H * d]],
          value: [last(inputs.v), [1, 1, H * d]],
          past_key: [past(inputs.k), [1, H, T - 1, d]],
          past_value: [past(inputs.v), [1, H, T - 1, d]],
        },
        (out) => [out.output.data],
      ),
    ],
  };
}

/** x (1, T, dModel) -> k, v (1, H, T, d): the prefill's cache, as onnxruntime computes it. */
function prefillModel({ dModel, weights }) {
  const heads = (name) => [
    node('MatMul', ['x', `w${name}`], [`${name}_flat`]),
    node('Reshape', [`${name}_flat`, 'split'], [`${name}_split`]),
    node('Transpose', [`${name}_split`], [name], { perm: [0, 2, 1, 3] }),
  ];
  return onnxModel({
    opsets: { '': 21 },
    inputs: [['x', [1, T, dModel]]],
    outputs: ['k', 'v'].map((n) => [n, [1, H, T, d]]),
    initializers: [int64Tensor('split', [4], [1, T, H, d]), ...['wk', 'wv'].map((w) => floatTensor(w, [dModel, dModel], weights[w]))],
    nodes: [...heads('k'), ...heads('v')],
  });
}

/** x (1, 1, dModel) with a past of T rows -> out (1, 1, dModel): MatMul x3, GroupQueryAttention, MatMul. */
function decodeLayerModel({ dModel, weights }) {
  const gqa = groupQueryAttentionNode({ H, Hkv: H, S: 1, P: T, d }, { output: 'y' });
  return onnxModel({
    opsets: { '': 21, 'com.microsoft': 1 },
    inputs: [['x', [1, 1, dModel]], ['past_key', [1, H, T, d]], ['past_value', [1, H, T, d]]],
    outputs: [['out', [1, 1, dModel]]],
    initializers: [...['wq', 'wk', 'wv', 'wo'].map((w) => floatTensor(w, [dModel, dModel], weights[w])), ...gqa.initializers],
    nodes: [
      node('MatMul', ['x', 'wq'], ['query']),
      node('MatMul', ['x', 'wk'], ['key']),
      node('MatMul', ['x', 'wv'], ['value']),
      gqa.node,
      node('MatMul', ['y', 'wo'], ['out']),
    ],
  });
}

function layerDecodeConfig(modules) {
  const dModel = H * d;
  const prefix = fill(T * dModel, 41);
  const xNew = fill(dModel, 42);
  return {
    title: `issue 12 decode step: multiHeadAttention layer forward(xNew, { cache }), dModel=${dModel} H=${H}, cache of ${T}`,
    unit: 'us/call',
    work: 1,
    build: async () => {
      const ours = [];
      let weights;
      for (const attn of modules) {
        const layer = attn.multiHeadAttention({ dModel, heads: H, causal: true, seed: 7 });
        const cache = layer.createCache();
        layer.forward({ data: prefix, shape: [1, T, dModel] }, { cache, trace: false });
        weights ??= Object.fromEntries(Object.entries(layer.parameters()).map(([k, t]) => [k, t.data]));
        const x = { data: xNew, shape: [1, 1, dModel] };
        ours.push(contender({ library: 'attention-lab', form: attn.backend }, () => [layer.forward(x, { cache }).output.data]));
      }
      // The peer's past k and v: the same prefix through the same Wk and Wv, computed by onnxruntime.
      const prefill = await onnxruntimeSessionContender('prefill', prefillModel({ dModel, weights }), { x: [prefix, [1, T, dModel]] }, (out) => [out.k.data, out.v.data]);
      if (prefill.error) return [...ours, prefill];
      const [pastK, pastV] = await prefill.result();
      await prefill.release();
      const peer = await onnxruntimeSessionContender(
        'MatMul + GroupQueryAttention (past) + MatMul',
        decodeLayerModel({ dModel, weights }),
        { x: [xNew, [1, 1, dModel]], past_key: [pastK, [1, H, T, d]], past_value: [pastV, [1, H, T, d]] },
        (out) => [out.out.data],
      );
      return [...ours, peer];
    },
  };
}

/**
 * The issue 12 configurations (the window at T = 1024 and 2048 to show its O(T w) scaling, 1024
 * only with --quick: 4096 is out: onnxruntime-web's windowed GroupQueryAttention takes seconds a call there): sdpaModules (ours, wasm-simd first; a pool's async calls are fine),
 * layerModules (synchronous builds only: a pool's layers have no createCache).
 */
export function modernConfigs(sdpaModules, layerModules, { quick }) {
  const windowSizes = quick ? [T / 4] : [T / 4, T / 2];
  return [...windowSizes.map((t) => windowConfig(sdpaModules, t)), sdpaDecodeConfig(sdpaModules), layerDecodeConfig(layerModules)];
}
