// Real-model shapes (issue 13): BERT-base, H = 12 heads of d = 64 (dModel 768), sequences of
// T = 128 and 512, batches B = 1 and 8, bidirectional (no mask), one thread; ours against
// onnxruntime-web only (tfjs and plain JS take minutes at B = 8, T = 512 and are compared at B = 1
// in sdpa-configs.mjs).
//   sdpa forward, forward+backward   the same flop counts as sdpa-configs.mjs, times B
//   multiHeadAttention layer forward x (B, T, 768) -> out: projections included, 8 B T dModel^2
//                                    (four (dModel, dModel) products) + 4 B T^2 dModel; against
//                                    onnxruntime-web's MatMul, com.microsoft MultiHeadAttention,
//                                    MatMul graph with the same weights
import { contender, fill } from './contender.mjs';
import { attentionLabContenders } from './local-contenders.mjs';
import { onnxruntimeContenders, onnxruntimeLayerContender } from './peer-onnxruntime.mjs';

const H = 12;
const d = 64;
const dModel = H * d;

const PASSES = [
  { key: 'bertForward', title: 'forward', pass: 'forward', flopsPerEntry: 4 },
  { key: 'bertForwardBackward', title: 'forward+backward', pass: 'forwardBackward', flopsPerEntry: 14 },
];

function sdpaConfigs(modules, { B, T }) {
  const n = B * H * T * d;
  const inputs = { q: fill(n, 1), k: fill(n, 2), v: fill(n, 3), dout: fill(n, 4) };
  return PASSES.map((p) => {
    const config = { pass: p.pass, causal: false, B, H, T, d, inputs };
    return {
      title: `BERT-base sdpa ${p.title}, B=${B} H=${H} d=${d} Tq=Tk=${T}`,
      unit: 'GFLOP/s',
      work: p.flopsPerEntry * B * H * T * T * d,
      build: async () => [...attentionLabContenders(modules, config), ...(await onnxruntimeContenders(config, { threads: 1 }))],
    };
  });
}

function layerConfig(modules, { B, T }) {
  const x = fill(B * T * dModel, 41);
  return {
    title: `BERT-base multiHeadAttention layer forward (projections included), B=${B} T=${T} dModel=${dModel} H=${H}`,
    unit: 'GFLOP/s',
    work: 8 * B * T * dModel * dModel + 4 * B * T * T * dModel,
    build: async () => {
      const layers = modules.map((attn) => attn.multiHeadAttention({ dModel, heads: H, seed: 7 }));
      const ours = modules.map((attn, i) =>
        contender({ library: 'attention-lab', form: attn.backend, threads: attn.threads ?? 1 }, async () => [
          (await layers[i].forward({ data: x, shape: [B, T, dModel] }, { trace: false })).output.data,
        ]),
      );
      // The peer gets our first layer's weights, so both compute the same function of x.
      const weights = Object.fromEntries(Object.entries(await layers[0].parameters()).map(([k, t]) => [k, t.data]));
      return [...ours, await onnxruntimeLayerContender({ B, T, dModel, H, weights, x })];
    },
  };
}

/** Every BERT-base configuration for the synchronous builds (modules: ours, wasm-simd first). */
export function bertConfigs(modules, { quick }) {
  const shapes = quick ? [{ B: 1, T: 128 }] : [{ B: 1, T: 512 }, { B: 8, T: 128 }];
  return shapes.flatMap((shape) => [...sdpaConfigs(modules, shape), layerConfig(modules, shape)]);
}
