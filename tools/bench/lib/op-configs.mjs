// The other operations, timed on attention-lab's own builds (wasm-simd against wasm-scalar): the
// additive attention, the two layers (forward + backward) and the masked softmax.
// Each configuration: { title, unit, work (flops or bytes of one call), build: () => contenders }.
// Flop counts (a multiply-add is 2 flops; tanh and exp count 1; forward + backward = 3 x forward,
// the usual estimate of a backward as two products per forward product, except for the sdpa part
// of a layer, which uses the 14 B H Tq Tk d of sdpa-configs.mjs):
//   additive forward  2 Tq dq h + 2 Tk dk h (projections) + 4 h Tq Tk (add, tanh, w_v dot) + 2 Tq Tk dv
//   selfAttention     3 x (2 T d_in (2 d_q + d_out)) + 7 T^2 (d_q + d_out)
//   multiHeadAttention 3 x (8 T dModel^2) + 14 T^2 dModel
// The masked softmax is memory-bound: GB/s counts bytes read and written (x in, y out; y, dy in,
// dx out for the backward), 4 bytes each.
import { contender, fill } from './contender.mjs';

const tensorOf = (data, shape) => ({ data, shape });

function perModule(modules, run) {
  return modules.map((attn) => contender({ library: 'attention-lab', form: attn.backend }, () => run(attn)));
}

function additiveConfigs(modules, { T, d, h }) {
  const q = tensorOf(fill(T * d, 11), [1, T, d]);
  const k = tensorOf(fill(T * d, 12), [1, T, d]);
  const v = tensorOf(fill(T * d, 13), [1, T, d]);
  const dout = tensorOf(fill(T * d, 14), [1, T, d]);
  const params = { wq: tensorOf(fill(d * h, 15), [d, h]), wk: tensorOf(fill(d * h, 16), [d, h]), wv: tensorOf(fill(h, 17), [h]) };
  const additive = { scoring: 'additive', params };
  const forwardFlops = 4 * T * d * h + 4 * h * T * T + 2 * T * T * d;
  const shape = `B=1 Tq=Tk=${T} dq=dk=dv=${d} h=${h}`;
  return [
    {
      title: `additive attention forward, ${shape}`,
      unit: 'GFLOP/s',
      work: forwardFlops,
      build: () => perModule(modules, (attn) => [attn.attention(q, k, v, additive).output.data]),
    },
    {
      title: `additive attention forward+backward, ${shape}`,
      unit: 'GFLOP/s',
      work: 3 * forwardFlops,
      build: () =>
        perModule(modules, (attn) => {
          attn.attention(q, k, v, additive);
          const g = attn.attentionBackward(q, k, v, dout, additive);
          return [g.dq.data, g.dk.data, g.dv.data, g.dwq.data, g.dwk.data, g.dwv.data];
        }),
    },
  ];
}

/** forward (no trace) + backward of a layer made by makeLayer(attn); returns every gradient. */
function layerRun(makeLayer, x, dy) {
  const layers = new Map();
  return (attn) => {
    if (!layers.has(attn)) layers.set(attn, makeLayer(attn));
    const layer = layers.get(attn);
    layer.forward(x, { trace: false });
    const g = layer.backward(dy);
    return ['dx', 'dwq', 'dwk', 'dwv', 'dwo'].filter((n) => g[n]).map((n) => g[n].data);
  };
}

function layerConfigs(modules, { T, d, dModel, heads }) {
  const x = tensorOf(fill(T * d, 21), [1, T, d]);
  const dy = tensorOf(fill(T * d, 22), [1, T, d]);
  const xm = tensorOf(fill(T * dModel, 23), [1, T, dModel]);
  const dym = tensorOf(fill(T * dModel, 24), [1, T, dModel]);
  const selfRun = layerRun((attn) => attn.selfAttention({ dIn: d, seed: 1 }), x, dy);
  const mhaRun = layerRun((attn) => attn.multiHeadAttention({ dModel, heads, seed: 1 }), xm, dym);
  return [
    {
      title: `selfAttention layer forward+backward, B=1 T=${T} d_in=d_q=d_out=${d}`,
      unit: 'GFLOP/s',
      work: 3 * 2 * T * d * 3 * d + 7 * T * T * 2 * d,
      build: () => perModule(modules, selfRun),
    },
    {
      title: `multiHeadAttention layer forward+backward, B=1 T=${T} dModel=${dModel} H=${heads}`,
      unit: 'GFLOP/s',
      work: 3 * 8 * T * dModel * dModel + 14 * T * T * dModel,
      build: () => perModule(modules, mhaRun),
    },
  ];
}

function softmaxConfigs(modules, { H, T }) {
  const n = H * T * T;
  const x = tensorOf(fill(n, 31), [1, H, T, T]);
  const dy = tensorOf(fill(n, 32), [1, H, T, T]);
  const shape = `(1, ${H}, ${T}, ${T})`;
  return [
    {
      title: `maskedSoftmax forward, x ${shape}`,
      unit: 'GB/s',
      work: 8 * n,
      build: () => perModule(modules, (attn) => [attn.maskedSoftmax(x).data]),
    },
    {
      title: `maskedSoftmaxBackward, ${shape}`,
      unit: 'GB/s',
      work: 12 * n,
      // the weights come from one softmax, so both builds differentiate the same y
      build: () => {
        const y = tensorOf(modules[0].maskedSoftmax(x).data, x.shape);
        return perModule(modules, (attn) => [attn.maskedSoftmaxBackward(y, dy).data]);
      },
    },
  ];
}

/** All of them; quick runs use smaller sizes. */
export function opConfigs(modules, { quick }) {
  const T = quick ? 256 : 512;
  return [
    ...additiveConfigs(modules, { T, d: 64, h: 64 }),
    ...layerConfigs(modules, { T, d: 64, dModel: 512, heads: 8 }),
    ...softmaxConfigs(modules, { H: 8, T }),
  ];
}
