// onnxruntime-web (wasm backend) as benchmark contenders, one per model form (onnx-attention.mjs).
// Shapes: q, k, v, dout (B, H, T, d) (B = 1 unless given). Input ort.Tensors wrap the Float32Arrays once; every
// session.run copies them into wasm memory and the outputs out, as our own calls do.
// The thread count is fixed per JS realm when the first session starts the wasm, so runs with
// more than one thread are built inside a worker (worker-host.mjs), not here.
import * as ort from 'onnxruntime-web';
import { contender, unavailable } from './contender.mjs';
import { attentionOpModel, gradientGraphModel, multiHeadAttentionModel, multiHeadLayerModel, opGraphModel } from './onnx-attention.mjs';

/** (Bn, X, Y, d) -> (Bn, Y, X, d): (B, H, T, d) <-> (B, T, H d), MultiHeadAttention's layout for q and y. */
export function swapHeadsAndTime(x, X, Y, d) {
  const out = new Float32Array(x.length);
  const batch = X * Y * d;
  for (let n = 0; n < x.length / batch; n++) {
    const base = n * batch;
    for (let a = 0; a < X; a++) for (let b = 0; b < Y; b++) out.set(x.subarray(base + (a * Y + b) * d, base + (a * Y + b + 1) * d), base + (b * X + a) * d);
  }
  return out;
}

/** The forms worth trying for a pass: [form, model builder, q in MultiHeadAttention's layout]. */
function formsOf(pass) {
  if (pass === 'forwardBackward') return [['gradient graph', gradientGraphModel, false]];
  return [
    ['op graph', opGraphModel, false],
    ['MultiHeadAttention', multiHeadAttentionModel, true],
    ['Attention (opset 23)', attentionOpModel, false],
  ];
}

/** Contenders for { pass, causal, B, H, T, d, inputs } with the given thread count. */
export async function onnxruntimeContenders({ pass, causal, B = 1, H, T, d, inputs }, { threads = 1 } = {}) {
  ort.env.wasm.numThreads = threads; // read once, when the first session starts the wasm
  const shape = [B, H, T, d];
  const contenders = [];
  for (const [form, build, bsd] of formsOf(pass)) {
    const meta = { library: 'onnxruntime-web', form, threads };
    try {
      const session = await ort.InferenceSession.create(build({ B, H, T, d, causal }), { executionProviders: ['wasm'] });
      const feeds = {
        q: bsd ? new ort.Tensor('float32', swapHeadsAndTime(inputs.q, H, T, d), [B, T, H * d]) : new ort.Tensor('float32', inputs.q, shape),
        k: new ort.Tensor('float32', inputs.k, shape),
        v: new ort.Tensor('float32', inputs.v, shape),
        ...(pass === 'forwardBackward' ? { dout: new ort.Tensor('float32', inputs.dout, shape) } : {}),
      };
      const names = pass === 'forward' ? ['y'] : ['dq', 'dk', 'dv'];
      const toOurs = (out) => names.map((n) => (bsd ? swapHeadsAndTime(out[n].data, T, H, d) : out[n].data));
      const c = contender(meta, () => session.run(feeds), toOurs, () => session.release());
      await c.time(); // a first run: a form the wasm backend cannot execute fails here, not in the timing
      contenders.push(c);
    } catch (error) {
      contenders.push(unavailable(meta, error));
    }
  }
  return contenders;
}

/**
 * One single-thread session of the given model bytes as a contender: feeds are built once (ort.Tensors
 * over Float32Arrays), toOurs(outputs) gives the check's Float32Arrays. A first run happens here, so a
 * model the wasm backend cannot execute is a row that says why, not a failure of the whole bench.
 */
export async function onnxruntimeSessionContender(form, bytes, feeds, toOurs) {
  ort.env.wasm.numThreads = 1;
  const meta = { library: 'onnxruntime-web', form, threads: 1 };
  try {
    const session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
    const tensors = Object.fromEntries(Object.entries(feeds).map(([name, [data, dims]]) => [name, new ort.Tensor('float32', data, dims)]));
    const c = contender(meta, () => session.run(tensors), toOurs, () => session.release());
    await c.time();
    return c;
  } catch (error) {
    return unavailable(meta, error);
  }
}

/**
 * The multi-head attention layer (onnx-attention.mjs multiHeadLayerModel) with the given weights:
 * x (B, T, dModel) -> out (B, T, dModel), one thread.
 */
export function onnxruntimeLayerContender({ B, T, dModel, H, weights, x }) {
  const bytes = multiHeadLayerModel({ B, T, dModel, H, weights });
  return onnxruntimeSessionContender('MatMul + MultiHeadAttention + MatMul', bytes, { x: [x, [B, T, dModel]] }, (out) => [out.out.data]);
}
