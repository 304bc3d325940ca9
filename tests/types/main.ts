// A consumer of 'attention-lab' (web/src/index.d.ts) using its whole surface: every export, every
// option of every method (each options literal `satisfies Required<...>`, so an option the
// declarations gain must be used here too), every result field, both loadAttention overloads.
// Compiled only (`tsc -p tests/types`); tests/types/declarations.test.js checks at runtime that the
// names declared here are the ones the JS exports and accepts.
import {
  loadAttention,
  relaxedSimdSupported,
  simdSupported,
  toTensor,
  type Attention,
  type AttentionBackwardOptions,
  type AttentionGradients,
  type AttentionLayer,
  type AttentionOptions,
  type AttentionResult,
  type AttentionTrace,
  type AttnMask,
  type Causal,
  type BuildInfo,
  type KVCache,
  type LayerForwardOptions,
  type LayerGradients,
  type LayerParameters,
  type LayerPositionOptions,
  type LayerTrace,
  type LoadOptions,
  type Alibi,
  type AttentionWindow,
  type LayerConfig,
  type LayerPositionConfig,
  type MultiHeadAttentionConfig,
  type RopeSetting,
  type SelfAttentionConfig,
  type MaskOptions,
  type MultiHeadAttentionOptions,
  type ParallelAttention,
  type ParallelAttentionLayer,
  type ParallelOptions,
  type RopeOptions,
  type Scoring,
  type ScoringParams,
  type SdpaBackwardOptions,
  type SdpaCommonOptions,
  type SdpaGradients,
  type SdpaOptions,
  type SelfAttentionOptions,
  type Tensor,
  type TensorLike,
  type Threaded,
  type AdamWOptions,
  type TokensLike,
  type Transformer,
  type ParallelTransformer,
  type TransformerConfig,
  type TransformerLossOptions,
  type TransformerParameters,
  type TransformerStepOptions,
  type ValidLens,
} from 'attention-lab';
import { expectType, type Equal } from './assert.js';

const simd: boolean = simdSupported();

// toTensor: a Float32Array tensor by default, or the typed array asked for.
const converted = toTensor(
  [
    [1, 2],
    [3, 4],
  ],
  'weights',
);
const unnamed = toTensor({ data: [1, 2], shape: [2] });
const bytes = toTensor([1, 0, 1], 'mask', Uint8Array);
expectType<Equal<typeof converted, Tensor>>(true);
expectType<Equal<typeof unnamed, Tensor>>(true);
const byteData: Uint8Array = bytes.data; // the array type asked for
const byteShape: number[] = bytes.shape;
void [byteData, byteShape];
const relaxedSimd: boolean = relaxedSimdSupported();

// Every TensorLike form.
const tensor: Tensor = { data: new Float32Array(4), shape: [2, 2] };
const inputs: TensorLike[] = [
  tensor,
  { data: new Int32Array(4), shape: [2, 2] as const },
  { data: [1, 2, 3, 4], shape: [4] },
  [1, 2],
  [
    [1, 2],
    [3, 4],
  ],
  [[[1, 2]]],
  [[[[1, 2]]]],
];
const q: TensorLike = [
  [
    [1, 0],
    [0, 1],
  ],
]; // (B, T, d) = (1, 2, 2)
const lens: ValidLens[] = [[2], [[1, 2]], new Int32Array([2]), { data: [2], shape: [1] }];
const causals: Causal[] = [true, false, 'top-left', 'bottom-right'];
const boolMask: AttnMask = { data: new Uint8Array([1, 1, 0, 1]), shape: [2, 2] };
const floatMask: AttnMask = { data: new Float32Array([0, -Infinity, 0, 0]), shape: [2, 2] };

const mask = {
  validLens: lens[0],
  causal: causals[3],
  attnMask: boolMask,
  maskFill: -1e6,
  window: [2, 0],
  alibi: true,
} satisfies Required<MaskOptions>;
// Every form of alibi: the paper's slopes, or one slope per head as numbers or a typed array.
const alibis: Alibi[] = [false, [0.5], new Float32Array([0.5]), new Float64Array([0.5])];
const windows: AttentionWindow[] = [
  [2, 0],
  [-1, -1],
];
const ropes: RopeSetting[] = [true, false, { base: 500 }, { interleaved: true }];
const rope = { base: 500000, offset: 3, interleaved: true } satisfies Required<RopeOptions>;
const backwardMask: MaskOptions = { ...mask, attnMask: floatMask };

// Each backward takes its own options type, without the forward-only ones (it rejects those).
const sdpaCommon = {
  ...mask,
  scale: 0.5,
  softcap: 30,
  dropout: 0.1,
  dropoutSeed: 7,
} satisfies Required<SdpaCommonOptions>;
const sdpa = {
  ...sdpaCommon,
  returnWeights: true,
  trace: true,
  returnLse: true,
  out: new Float32Array(4), // the output of q (1, 2, 2): written in place of a fresh array
} satisfies Required<SdpaOptions>;

// Additive attention is attention() with scoring 'additive' and its weights in params.
const additive = {
  ...mask,
  scoring: 'additive',
  params: {
    wq: [
      [1, 0],
      [0, 1],
    ],
    wk: [
      [1, 0],
      [0, 1],
    ],
    wv: [1, 1],
  },
} satisfies AttentionBackwardOptions;

const params = {
  w: [
    [1, 0],
    [0, 1],
  ],
  wq: [[1]],
  wk: [[1]],
  wv: [1],
} satisfies Required<ScoringParams>;
const scorings: Scoring[] = ['dot', 'scaled-dot', 'general', 'additive', 'concat'];
const generalBackward = {
  ...mask,
  scoring: scorings[2],
  params,
  scale: 1,
  softcap: 0,
  dropout: 0,
  dropoutSeed: 1,
} satisfies Required<AttentionBackwardOptions>;
const general = {
  ...generalBackward,
  returnWeights: true,
  trace: true,
} satisfies Required<AttentionOptions>;

// A forward with a cache takes neither validLens nor a trace (it rejects both), so the options
// every forward takes and the cache are written apart; together they are every option.
const layerForward = { validLens: [2], trace: true } satisfies Required<Omit<LayerForwardOptions, 'cache'>>;
const cachedForward = (cache: KVCache) => ({ cache }) satisfies Pick<Required<LayerForwardOptions>, 'cache'>;
expectType<Equal<keyof LayerForwardOptions, keyof typeof layerForward | 'cache'>>(true);
const positions = {
  window: [4, 0],
  alibi: [0.5, 0.25],
  rope: { base: 10000, interleaved: false },
} satisfies Required<LayerPositionOptions>;
const selfOptions = {
  wq: [
    [1, 0],
    [0, 1],
  ],
  wk: [
    [1, 1],
    [0, 1],
  ],
  wv: [
    [1, 0],
    [1, 1],
  ],
  dIn: 2,
  dQ: 2,
  dOut: 2,
  seed: 4,
  causal: true,
  scale: 0.7,
  ...positions,
  alibi: true,
} satisfies Required<SelfAttentionOptions>;
const mhaOptions = {
  dModel: 4,
  heads: 2,
  kvHeads: 1,
  causal: 'bottom-right',
  seed: 3,
  wq: [[0]],
  wk: [[0]],
  wv: [[0]],
  wo: [[0]],
  ...positions,
  rope: true,
} satisfies Required<MultiHeadAttentionOptions>;

const load = { simd: true, wasmUrl: new URL('file:///attention.wasm'), wasmBinary: new Uint8Array(8) } satisfies Required<LoadOptions>;
const threaded = { ...load, wasmUrl: '/attention.wasm', threads: 2, inlineBelow: 0 } satisfies Required<ParallelOptions>;
// simd picks one of three builds: true (simd128), 'relaxed' (relaxed_madd) or false (scalar).
expectType<Equal<LoadOptions['simd'], boolean | 'relaxed' | undefined>>(true);
const relaxedLoad = { ...load, simd: 'relaxed' } satisfies Required<LoadOptions>;
const relaxedThreaded = { ...threaded, simd: 'relaxed' } satisfies Required<ParallelOptions>;

/** Reads every field of a forward result. */
function readResult(result: AttentionResult): number {
  const trace: AttentionTrace | undefined = result.trace;
  const fields: (Tensor | undefined)[] = [result.output, result.weights, result.lse, trace?.scores, trace?.softcapped, trace?.masked];
  return fields.reduce((n, t) => n + (t ? t.data.length + t.shape.length : 0), 0);
}

/** The two configs, each named by its kind. */
function readConfigs(config: LayerConfig): number {
  const self: SelfAttentionConfig | undefined = config.kind === 'selfAttention' ? config : undefined;
  const mha: MultiHeadAttentionConfig | undefined = config.kind === 'multiHeadAttention' ? config : undefined;
  return (self?.dOut ?? 0) + (mha?.dHead ?? 0) + windows.length + ropes.length;
}

function readLayer(layer: AttentionLayer, x: TensorLike): number {
  const { output, trace }: { output: Tensor; trace?: LayerTrace } = layer.forward(x, layerForward);
  const seen = [trace?.q, trace?.k, trace?.v, trace?.scores, trace?.masked, trace?.weights, trace?.output];
  const grads: LayerGradients = layer.backward(output);
  layer.step(0.1);
  const weights: LayerParameters = layer.parameters();
  layer.setParameters({ wq: weights.wq, wk: weights.wk, wv: weights.wv, wo: weights.wo ?? [[0]] });
  layer.setParameters({});
  // A decoder's steps: the first rows, then one more row at a time, against a KV cache.
  const cache: KVCache = layer.createCache({ maxLength: 8 });
  layer.forward(x, cachedForward(cache));
  const held: number = cache.length + cache.capacity + cache.maxLength;
  cache.dispose();
  layer.createCache();
  const config: Readonly<LayerConfig> = layer.config;
  const sizes = config.kind === 'selfAttention' ? config.dIn + config.dQ + config.dOut : config.dModel + config.heads + config.kvHeads + config.dHead;
  const positions: LayerPositionConfig = config;
  layer.dispose();
  return (
    seen.length +
    grads.dx.data.length +
    grads.dwq.data.length +
    grads.dwk.data.length +
    grads.dwv.data.length +
    (grads.dwo?.data.length ?? 0) +
    Object.keys(config).length +
    held +
    sizes +
    config.seed +
    config.scale +
    (positions.window?.[0] ?? 0) +
    (positions.rope?.base ?? 0) +
    Number(positions.alibi === true) +
    readConfigs(config)
  );
}

export async function useSync(): Promise<number> {
  // Both overloads: no options / load options -> Attention; { threads } -> ParallelAttention.
  const attn: Attention = await loadAttention();
  const scalar = await loadAttention({ simd: false, wasmBinary: new ArrayBuffer(8) });
  expectType<Equal<typeof scalar, Attention>>(true);
  expectType<Equal<Attention['backend'], 'wasm-simd' | 'wasm-relaxed' | 'wasm-scalar'>>(true);
  const backend: 'wasm-simd' | 'wasm-relaxed' | 'wasm-scalar' = attn.backend;
  // The relaxed build where the engine has relaxed SIMD (Node 22+, Chrome 114+), through both overloads.
  if (relaxedSimd) {
    const relaxed: Attention = await loadAttention(relaxedLoad);
    const relaxedPool: ParallelAttention = await loadAttention(relaxedThreaded);
    expectType<Equal<typeof relaxedPool.backend, typeof relaxed.backend>>(true);
    relaxedPool.dispose();
  }
  const arch: string = attn.arch;
  // The build and its register tile, fixed at compile time: no tile option, no calibration.
  const build: BuildInfo = attn.build;
  const buildName: 'simd' | 'relaxed' | 'scalar' = build.name;
  const tile: '2x4' | '4x2' = build.tile;
  // @ts-expect-error read-only
  attn.build = build;
  // @ts-expect-error the tile is no load option
  const tiled: LoadOptions = { tile: '2x4' };
  // @ts-expect-error the calibration's record is gone
  void attn.kernel;

  const weights: Tensor = attn.maskedSoftmax(inputs[2], mask);
  const dx: Tensor = attn.maskedSoftmaxBackward(weights, weights, backwardMask);
  const forward = attn.scaledDotProductAttention(q, q, q, sdpa);
  const { output, lse } = forward;
  const saved = { output, lse: lse ?? [0] };
  const backwardOptions = { ...sdpaCommon, saved } satisfies Required<SdpaBackwardOptions>;
  const grads: SdpaGradients = attn.scaledDotProductAttentionBackward(q, q, q, output, backwardOptions);
  const add: AttentionResult = attn.attention(q, q, q, { ...additive, returnWeights: true, trace: true });
  const addGrads: AttentionGradients = attn.attentionBackward(q, q, q, add.output, additive);
  const gen = attn.attention(q, q, q, general);
  const genGrads: AttentionGradients = attn.attentionBackward(q, q, q, gen.output, generalBackward);
  attn.attention(q, q, q);
  attn.maskedSoftmax(q);
  const rotated: Tensor = attn.rope(q, rope);
  const unrotated: Tensor = attn.ropeBackward(rotated, rope);
  attn.rope(q);
  attn.ropeBackward(q);
  alibis.forEach((alibi) => attn.scaledDotProductAttention(q, q, q, { alibi }));

  return (
    [
      weights,
      dx,
      rotated,
      unrotated,
      grads.dq,
      grads.dk,
      grads.dv,
      addGrads.dwq,
      addGrads.dwk,
      addGrads.dwv,
      genGrads.dw,
      genGrads.dwq,
      genGrads.dwk,
      genGrads.dwv,
    ].length +
    readResult(forward) +
    readResult(add) +
    readResult(gen) +
    readLayer(attn.selfAttention(selfOptions), [
      [1, 2],
      [0, 1],
    ]) +
    readLayer(attn.selfAttention({ dIn: 2 }), [[[1, 2]]]) +
    readLayer(attn.multiHeadAttention(mhaOptions), [[1, 2, 3, 4]]) +
    backend.length +
    arch.length +
    buildName.length +
    tile.length +
    Object.keys(tiled).length +
    Number(simd) +
    inputs.length +
    scorings.length
  );
}

export async function useThreads(): Promise<number> {
  const pool: ParallelAttention = await loadAttention(threaded);
  const threads: number = pool.threads;
  // The threaded API is the synchronous one with every result in a Promise (and layers on a worker).
  expectType<Equal<ReturnType<ParallelAttention['maskedSoftmax']>, Promise<Tensor>>>(true);
  expectType<Equal<Parameters<ParallelAttention['attentionBackward']>, Parameters<Attention['attentionBackward']>>>(true);
  expectType<Equal<ReturnType<ParallelAttention['selfAttention']>, Promise<ParallelAttentionLayer>>>(true);
  expectType<Equal<ReturnType<ParallelAttentionLayer['step']>, Promise<void>>>(true);
  expectType<Equal<ParallelAttentionLayer['config'], AttentionLayer['config']>>(true);
  expectType<Equal<ParallelAttention['backend'], Attention['backend']>>(true);
  expectType<Equal<Threaded<Pick<Attention, 'arch' | 'maskedSoftmax'>>, Readonly<Pick<ParallelAttention, 'arch' | 'maskedSoftmax'>>>>(true);

  const weights: Tensor = await pool.maskedSoftmax([1, 2], mask);
  const dx: Tensor = await pool.maskedSoftmaxBackward(weights, weights, backwardMask);
  const forward: AttentionResult = await pool.scaledDotProductAttention(q, q, q, sdpa);
  const grads: SdpaGradients = await pool.scaledDotProductAttentionBackward(q, q, q, forward.output, sdpaCommon);
  const add: AttentionResult = await pool.attention(q, q, q, additive);
  const addGrads: AttentionGradients = await pool.attentionBackward(q, q, q, add.output, additive);
  const gen: AttentionResult = await pool.attention(q, q, q, general);
  const genGrads: AttentionGradients = await pool.attentionBackward(q, q, q, gen.output, generalBackward);
  const rotated: Tensor = await pool.rope(q, rope);
  await pool.ropeBackward(rotated, rope);

  const layer: ParallelAttentionLayer = await pool.multiHeadAttention(mhaOptions);
  const { output, trace } = await layer.forward([[1, 2, 3, 4]], layerForward);
  const layerGrads: LayerGradients = await layer.backward(output);
  await layer.step(0.1);
  const parameters: LayerParameters = await layer.parameters();
  await layer.setParameters({ wo: parameters.wo ?? [[0]] });
  await layer.dispose();
  const model: ParallelTransformer = await pool.transformer({ vocab: 3, dModel: 2, layers: 1, heads: 1, maxLength: 2, positions: 'none', mlp: 0 });
  expectType<Equal<ReturnType<ParallelTransformer['trainStep']>, Promise<{ loss: number }>>>(true);
  expectType<Equal<ParallelTransformer['layout'], Transformer['layout']>>(true);
  const { loss } = await model.trainStep([[0, 1]], { optimizer: { learningRate: 0.1 } });
  await model.setParameters(await model.parameters());
  await model.dispose();
  const single: ParallelAttentionLayer = await pool.selfAttention(selfOptions);
  await single.dispose();
  pool.dispose();
  return (
    threads +
    dx.data.length +
    grads.dq.data.length +
    (addGrads.dwv?.data.length ?? 0) +
    genGrads.dq.data.length +
    (trace?.weights.data.length ?? 0) +
    layerGrads.dx.data.length +
    Object.keys(layer.config).length +
    loss +
    model.steps
  );
}

// A transformer: every option of its configuration and of each method, every result field.
export function useTransformer(attn: Attention): number {
  const config = {
    vocab: 5,
    dModel: 4,
    layers: 1,
    heads: 2,
    kvHeads: 1,
    maxLength: 4,
    positions: 'rope',
    rope: { base: 100 },
    alibi: true,
    window: 2,
    mlp: 8,
    gelu: 'tanh',
    tie: true,
    seed: 1,
  } satisfies Required<TransformerConfig>;
  const model: Transformer = attn.transformer({ ...config, alibi: undefined });
  const tokens: TokensLike = { data: new Int32Array([0, 1, 2, 3]), shape: [1, 4] };
  const { logits, trace } = model.forward(tokens, { trace: true } satisfies Required<Parameters<Transformer['forward']>[1] & object>);
  const loss = { targets: [[1, 2, 3, 0]], lossMask: [[1, 1, true, false]] } satisfies Required<TransformerLossOptions>;
  const { gradients } = model.gradients(tokens, loss);
  const optimizer = { learningRate: 1e-3, betas: [0.9, 0.999], eps: 1e-8, weightDecay: 0.01, clip: 1 } satisfies Required<AdamWOptions>;
  const step = { ...loss, optimizer } satisfies Required<TransformerStepOptions>;
  const trained: number = model.trainStep([[0, 1, 2, 3]], step).loss + model.trainStep(tokens, { optimizer: { learningRate: 0 } }).loss;
  const saved: TransformerParameters = model.parameters();
  model.setParameters(saved);
  model.setParameters(new Map(Object.entries(saved)));
  const sizes = model.layout.map((p) => p.shape.length + p.name.length);
  const shown = model.config.positions.length + model.config.kvHeads + (model.config.rope?.base ?? 0) + (model.config.window ?? 0);
  model.dispose();
  return (
    logits.data.length +
    (trace?.attentions.data.length ?? 0) +
    (trace?.residual[0]?.data.length ?? 0) +
    Object.keys(gradients).length +
    trained +
    sizes.length +
    shown +
    model.parameterCount +
    model.steps
  );
}

// What the declarations must reject.
export async function misuse(attn: Attention, pool: ParallelAttention): Promise<void> {
  // @ts-expect-error a typo of an option name
  attn.maskedSoftmax([1], { casual: true });
  // @ts-expect-error causal takes 'top-left' or 'bottom-right', not 'left'
  attn.scaledDotProductAttention(q, q, q, { causal: 'left' });
  // @ts-expect-error out is a Float32Array (the output's own type), not a Float64Array
  attn.scaledDotProductAttention(q, q, q, { out: new Float64Array(4) });
  // @ts-expect-error additiveAttention is gone: attention(q, k, v, { scoring: 'additive', params })
  attn.additiveAttention(q, q, q, {});
  // @ts-expect-error no such scoring
  attn.attention(q, q, q, { scoring: 'cosine' });
  // @ts-expect-error a multi-head layer needs dModel and heads
  attn.multiHeadAttention({ heads: 2 });
  // @ts-expect-error the synchronous API returns no Promise
  await attn.maskedSoftmax([1]).then;
  // @ts-expect-error the threaded API's results are Promises
  pool.maskedSoftmax([1]).data;
  // @ts-expect-error threads is the threaded overload's, and must be a number
  await loadAttention({ threads: '2' });
  // @ts-expect-error simd is true, false or 'relaxed'
  await loadAttention({ simd: 'relaxed-simd' });
  // @ts-expect-error a window has two sides
  attn.maskedSoftmax([1], { window: [1] });
  // @ts-expect-error a layer on a worker has no KV cache
  (await pool.selfAttention({ dIn: 2 })).createCache();
  // @ts-expect-error a transformer needs its positions and mlp width
  attn.transformer({ vocab: 5, dModel: 4, layers: 1, heads: 2, maxLength: 4 });
  // @ts-expect-error a training step needs its optimizer
  attn.transformer({ vocab: 5, dModel: 4, layers: 1, heads: 2, maxLength: 4, positions: 'none', mlp: 0 }).trainStep([[0]], {});
  // @ts-expect-error the backend is one of the three builds
  if (attn.backend === 'wasm-fma') return;
}
