// attention-lab public API. Shapes use the letters of docs/semantics.md:
// B batch, H query heads, Hkv key/value heads, Tq query length, Tk key length,
// d query/key width, dv value width, h hidden width of additive attention.
// Gradients are named d<what they are the gradient of> (of the loss), as in FlashAttention's
// backward (dout, dq, dk, dv): a backward takes dOutput (dWeights for maskedSoftmax, whose output
// is the weights) and returns dq, dk, dv, dx, dwq, ... in the shapes of q, k, v, x, Wq, ...
//
// Errors: bad input throws synchronously and never aborts the module (it keeps working afterwards):
//   TypeError   wrong kind of value: not a tensor, non-numeric or NaN/Infinity elements, an unknown
//               option name or value (e.g. causal: 'left'), missing weights, contradictory options
//               (softcap or dropout with a non-dot scoring), a typed array (data, shape, out,
//               attnMask, validLens, alibi) whose buffer was transferred before the call:
//               "fn: x.data is detached: ...";
//   RangeError  wrong sizes or ranges: data length vs shape, ragged nested arrays, rank, mismatched
//               axes (the message names the argument, the expected shape in letters and the actual
//               one), H % Hkv != 0, validLens that are negative, fractional or of the wrong shape, an
//               attnMask that does not broadcast, scale <= 0, softcap < 0, dropout outside [0, 1),
//               a number option that is finite in float64 but not in float32, where the core
//               computes (scale, softcap, maskFill or learningRate beyond ~3.4e38, a scale that
//               rounds to 0, a dropout that rounds to 1), a request larger than wasm memory can
//               hold ("... needs N MiB ...", scratch sizes included), nested arrays of more than
//               2 GiB of float32 (measured from their lengths before anything is allocated),
//               an input whose buffer
//               was detached or resized during the call, and finite inputs whose float32
//               intermediates overflow (|value| > 3.4e38, e.g. q k^T of two 1e20 vectors, or the
//               sum of two 2e38 values): "fn: an intermediate overflowed float32 (|value| > 3.4e38)
//               for these q, k, v; scale the inputs down", never a NaN or Infinity in a result
//               (output, weights, dx, dq, dk, dv, parameter gradients; lse and trace keep their
//               -Infinity for masked entries). The same holds on the worker pool and for layers.
// Options and tensors are read as own properties, each once: getters run once, and names
// inherited from a polluted Object.prototype are never read (an unknown name is a TypeError). A
// tensor's data and shape may also be getters of its class (a class instance is a tensor).
// Backward calls reject the forward-only options (returnWeights, trace, returnLse).
// Should a call ever trap inside wasm (a WebAssembly.RuntimeError: a bug, not bad input), it
// throws an Error saying the module was reset (the trap as its cause), and every later call,
// also through a fresh loadAttention(), runs on a fresh instance of the module.

/** A dense row-major float32 tensor. Results are always fresh arrays, never views into wasm memory. */
export interface Tensor {
  data: Float32Array;
  shape: number[];
}

/** Accepted wherever a tensor goes in: a Tensor, any numeric typed array with a shape, or nested arrays. */
export type TensorLike = Tensor | { data: ArrayLike<number>; shape: readonly number[] } | number[] | number[][] | number[][][] | number[][][][];

/** Valid lengths as in d2l: one per batch (B) or one per query row (B, Tq); keys j >= len are masked. */
export type ValidLens = number[] | number[][] | Int32Array | { data: ArrayLike<number>; shape: readonly number[] };

/** `true` means 'top-left' (j <= i); 'bottom-right' aligns the last query with the last key (j <= i + Tk - Tq). */
export type Causal = boolean | 'top-left' | 'bottom-right';

/**
 * Boolean mask (Uint8Array, 1 = may attend) or float mask (Float32Array, added to the scores;
 * -Infinity masks), broadcast numpy-style (right-aligned) to the scores in the rank of the input:
 * (B, H, Tq, Tk) for rank-4 q, (B, Tq, Tk) for rank 3, (Tq, Tk) for rank 2 (for maskedSoftmax: x's
 * shape). Rank at most 4; leading axes beyond the scores' rank must be 1.
 */
export interface AttnMask {
  data: Uint8Array | Float32Array;
  shape: number[];
}

/**
 * Sliding window [left, right] (FlashAttention's convention): key j is visible from query i when
 * i + (Tk - Tq) - left <= j <= i + (Tk - Tq) + right; -1 leaves that side open ([-1, 0] is the
 * bottom-right causal mask). Integers >= -1. Intersects every other mask.
 */
export type AttentionWindow = readonly [number, number];

/**
 * ALiBi (Press et al. 2022): -slope_h * |i + (Tk - Tq) - j| is added to the visible scores of head h
 * after the scale (and after softcap), with attnMask's float values, before the softmax. `true`:
 * the paper's slopes for H heads (2^(-8/H), 2^(-16/H), ... for H a power of two; otherwise those
 * of the closest smaller power of two n, then every other slope of 2n); or H finite slopes
 * (H = 1 for rank-3 and lower inputs). The slopes are constants: no gradient reaches them.
 */
export type Alibi = boolean | readonly number[] | Float32Array | Float64Array;

export interface MaskOptions {
  validLens?: ValidLens;
  causal?: Causal;
  attnMask?: AttnMask;
  /**
   * d2l mode: masked scores are replaced by this finite value (d2l uses -1e6), so a row with no
   * visible key becomes uniform. By default masked keys get -Infinity and such a row is all zeros.
   */
  maskFill?: number;
  window?: AttentionWindow;
  alibi?: Alibi;
}

/** Options of rope and ropeBackward (Su et al. 2021, as in Hugging Face's Llama and GPT-J). */
export interface RopeOptions {
  /** Pair i of the d/2 pairs turns at the frequency base^(-2i/d); default 10000. */
  base?: number;
  /** The position of the first row (e.g. the length of a KV cache); an integer >= 0, default 0. */
  offset?: number;
  /**
   * false (default): pairs (c, c + d/2), Hugging Face Llama's rotate_half; true: pairs (2c, 2c + 1),
   * GPT-J's rotate_every_two.
   */
  interleaved?: boolean;
}

/**
 * Rotary positions on q and k at positions 0 .. T - 1: true (base 10000, halves) or
 * { base, interleaved } as in RopeOptions.
 */
export type RopeSetting = boolean | Pick<RopeOptions, 'base' | 'interleaved'>;

/** The options of both directions of scaled dot-product attention. */
export interface SdpaCommonOptions extends MaskOptions {
  /** Multiplies q k^T; default 1/sqrt(d). Finite and > 0 in float32. */
  scale?: number;
  /** > 0: scores become softcap * tanh(scores / softcap) before the mask (ONNX). */
  softcap?: number;
  /** Dropout probability on the weights, in [0, 1); kept weights are scaled by 1/(1-p). */
  dropout?: number;
  /**
   * Seed of the dropout keep mask, an integer in [0, 2^53): the same seed gives the same mask in
   * forward and backward. (0.1's `seed`, refused with a TypeError naming this name.)
   */
  dropoutSeed?: number;
}

export interface SdpaOptions extends SdpaCommonOptions {
  /** Return the softmax weights (B, H, Tq, Tk) (before dropout). */
  returnWeights?: boolean;
  /** Return the intermediate score tensors (B, H, Tq, Tk). */
  trace?: boolean;
  /** Return the log-sum-exp of each masked score row (B, H, Tq); -Infinity for a fully masked row. */
  returnLse?: boolean;
  /**
   * Your Float32Array of exactly B * H * Tq * dv floats: the output is written into it and it is
   * returned as result.output.data, instead of a fresh array (a loop of calls then allocates no
   * output). Written only when the call succeeds; it may be one of the inputs' own data.
   */
  out?: Float32Array;
}

export interface SdpaBackwardOptions extends SdpaCommonOptions {
  /**
   * The forward's result on the same inputs and options, computed with returnLse: true. Its
   * output and lse let the backward skip recomputing the forward (about a quarter of its work).
   */
  saved?: { output: TensorLike; lse: TensorLike };
}

export interface AttentionTrace {
  /** scale * q k^T, every entry. */
  scores: Tensor;
  /** After softcap (present only when softcap > 0). */
  softcapped?: Tensor;
  /** After softcap and mask bias: -Infinity (or maskFill) where masked. */
  masked: Tensor;
}

export interface AttentionResult {
  /** (B, H, Tq, dv), in the rank of q. */
  output: Tensor;
  /** (B, H, Tq, Tk) in the rank of q, when returnWeights. */
  weights?: Tensor;
  /** When trace. */
  trace?: AttentionTrace;
  /** (B, H, Tq) in the rank of q minus one, when returnLse. */
  lse?: Tensor;
}

export interface SdpaGradients {
  dq: Tensor;
  dk: Tensor;
  dv: Tensor;
}

export type Scoring = 'dot' | 'scaled-dot' | 'general' | 'additive' | 'concat';

export interface ScoringParams {
  /** general: W (dq, dk); concat: w (dq + dk). */
  w?: TensorLike;
  /** additive: Wq (dq, h), Wk (dk, h), w_v (h). */
  wq?: TensorLike;
  wk?: TensorLike;
  wv?: TensorLike;
}

export interface AttentionBackwardOptions extends MaskOptions {
  /** Default 'scaled-dot'. */
  scoring?: Scoring;
  params?: ScoringParams;
  /** Multiplies the score; default 1/sqrt(d) for 'scaled-dot', 1 otherwise. Finite and > 0 in float32. */
  scale?: number;
  /** Dot-product scorings only. */
  softcap?: number;
  dropout?: number;
  /** As SdpaCommonOptions.dropoutSeed. */
  dropoutSeed?: number;
}

export interface AttentionOptions extends AttentionBackwardOptions {
  returnWeights?: boolean;
  trace?: boolean;
}

export interface AttentionGradients extends SdpaGradients {
  /** Gradients of the scoring parameters present in params (dw, dwq, dwk, dwv). */
  dw?: Tensor;
  dwq?: Tensor;
  dwk?: Tensor;
  dwv?: Tensor;
}

export interface LayerTrace {
  /** (B, H, T, d_q) in the rank of x plus the head axis for multi-head layers. */
  q: Tensor;
  k: Tensor;
  v: Tensor;
  /** scale * q k^T (B, H, T, T). */
  scores: Tensor;
  /** After the mask: -Infinity where masked. */
  masked: Tensor;
  /** Softmax weights (B, H, T, T). */
  weights: Tensor;
  /** The layer's output, as returned. */
  output: Tensor;
}

export interface LayerForwardOptions {
  /** (B) or (B, T). */
  validLens?: ValidLens;
  /** Default true; false returns no trace (and allocates no (T, T) tensors). */
  trace?: boolean;
  /**
   * A cache from this layer's createCache(): x holds the rows after the cached ones; their k and v
   * (rotated from position cache.length) are appended, and they attend to every cached row with
   * bottom-right causal alignment (and the layer's window and ALiBi). The output equals the
   * matching rows of one causal forward over the whole sequence, up to float32 rounding. No trace,
   * no validLens; backward() needs a forward without a cache. Synchronous layers only (a
   * ParallelAttentionLayer has no createCache, and its forward rejects a cache with a TypeError).
   */
  cache?: KVCache;
}

/**
 * The keys and values a layer has seen: k (B, Hkv, capacity, d_q), v (B, Hkv, capacity, d_v),
 * rows 0 .. length - 1 held. The capacity doubles as rows arrive; past maxLength a RangeError.
 * Belongs to the layer that made it, to the batch size of its first use and to the layer's weights
 * when it took its first row: after setParameters() or step() a cache holding rows refuses to go on
 * with a RangeError that says so (make a fresh one; an empty cache follows the weights). The rows
 * stay in wasm memory between calls (a decode step copies none of them) until dispose(), or the
 * layer's dispose(), frees them at once. A cache dropped without either is freed only once the
 * garbage collector has finalized it, which needs the event loop to turn: a loop that never awaits
 * and drops caches holds all of them (out of memory, the RangeError counts the live caches and
 * their MiB). Wasm memory never shrinks: freed rows are reused by later calls and caches, but the
 * memory an engine gave the module stays allocated to it (in RSS) until the module is discarded.
 * A call that fails (NaN in x, an overflow) leaves the cache as it was. After a wasm trap reset the
 * module, a cache that held rows refuses further use (make a new one).
 */
export interface KVCache {
  readonly length: number;
  readonly capacity: number;
  readonly maxLength: number;
  /**
   * Frees the rows now (length and capacity become 0). Idempotent; a later forward with this
   * cache throws an Error saying it was disposed.
   */
  dispose(): void;
}

export interface LayerGradients {
  dx: Tensor;
  dwq: Tensor;
  dwk: Tensor;
  dwv: Tensor;
  /** Multi-head layers only. */
  dwo?: Tensor;
}

export interface LayerParameters {
  wq: Tensor;
  wk: Tensor;
  wv: Tensor;
  wo?: Tensor;
}

/**
 * A layer keeps its weights in JS; only its KV caches hold wasm memory. dispose() drops its state
 * and frees every cache it made (their later use throws); later calls of its methods throw.
 */
export interface AttentionLayer {
  /** x (T, d_in) or (B, T, d_in) -> output (.., T, d_out). */
  forward(x: TensorLike, options?: LayerForwardOptions): { output: Tensor; trace?: LayerTrace };
  /** After forward: the gradients of the loss given dOutput, its gradient at the output (same shape). */
  backward(dOutput: TensorLike): LayerGradients;
  /** SGD: every weight -= learningRate * its gradient from the last backward. */
  step(learningRate: number): void;
  /** Copies of the current weights. */
  parameters(): LayerParameters;
  /** Replace weights (same shapes). */
  setParameters(params: Partial<Record<'wq' | 'wk' | 'wv' | 'wo', TensorLike>>): void;
  /** An empty KV cache for forward(x, { cache }); maxLength default 2^20 rows. */
  createCache(options?: { maxLength?: number }): KVCache;
  dispose(): void;
  /** The options as checked, their defaults filled in. */
  readonly config: Readonly<LayerConfig>;
}

/** What a layer's config shows of its position options (only those given). */
export interface LayerPositionConfig {
  window?: [number, number];
  /** true (the paper's slopes) or the slopes given. */
  alibi?: boolean | number[];
  rope?: { base: number; interleaved: boolean };
}

export interface SelfAttentionConfig extends LayerPositionConfig {
  kind: 'selfAttention';
  dIn: number;
  dQ: number;
  dOut: number;
  causal: Causal;
  scale: number;
  /** The weight-initialisation seed. */
  seed: number;
}

export interface MultiHeadAttentionConfig extends LayerPositionConfig {
  kind: 'multiHeadAttention';
  dModel: number;
  heads: number;
  kvHeads: number;
  /** dModel / heads. */
  dHead: number;
  causal: Causal;
  scale: number;
  /** The weight-initialisation seed. */
  seed: number;
}

export type LayerConfig = SelfAttentionConfig | MultiHeadAttentionConfig;

/** Position options of the layers (issue 12), on top of causal: as in MaskOptions, plus RoPE. */
export interface LayerPositionOptions {
  /** Sliding window [left, right] over the layer's (T, T) scores. */
  window?: AttentionWindow;
  /** ALiBi: true (the paper's slopes for the layer's heads) or one slope per query head. */
  alibi?: Alibi;
  /**
   * Rotary positions applied to q and k of every head after the projections (Llama's order). Needs
   * an even query/key width per head. A traced forward shows the rotated q and k.
   */
  rope?: RopeSetting;
}

export interface SelfAttentionOptions extends LayerPositionOptions {
  /** Given weights: Wq (d_in, d_q), Wk (d_in, d_q), Wv (d_in, d_out). */
  wq?: TensorLike;
  wk?: TensorLike;
  wv?: TensorLike;
  /**
   * Sizes for seeded initialisation of the weights not given (otherwise read from the given
   * weights); dQ and dOut default to dIn. Given weights and sizes must agree.
   */
  dIn?: number;
  dQ?: number;
  dOut?: number;
  seed?: number;
  causal?: Causal;
  /** Default 1/sqrt(d_q). */
  scale?: number;
}

export interface MultiHeadAttentionOptions extends LayerPositionOptions {
  dModel: number;
  heads: number;
  /** Default heads; must divide heads (grouped-query attention). */
  kvHeads?: number;
  causal?: Causal;
  seed?: number;
  /** Optional given weights: wq (dModel, dModel), wk/wv (dModel, kvHeads * dModel / heads), wo (dModel, dModel). */
  wq?: TensorLike;
  wk?: TensorLike;
  wv?: TensorLike;
  wo?: TensorLike;
}

/** Token ids (B, T): integers in [0, vocab), T <= maxLength; an Int32Array tensor is used as is. */
export type TokensLike = { data: Int32Array | ArrayLike<number>; shape: readonly [number, number] | readonly number[] } | number[][];

/**
 * A decoder-only transformer (tools/model/transformer.py's Transformer; attention-only with learned
 * positions it is tools/model/train_induction.py's Model): token embedding, positions, `layers`
 * blocks of pre-LayerNorm causal multi-head attention with a residual and, when mlp > 0, a
 * pre-LayerNorm GELU MLP with its own residual; a final LayerNorm and the unembedding.
 */
export interface TransformerConfig {
  vocab: number;
  dModel: number;
  layers: number;
  heads: number;
  /** Default heads; must divide heads (grouped-query attention). */
  kvHeads?: number;
  /** The longest sequence (T) the model takes; the learned position table has this many rows. */
  maxLength: number;
  positions: 'learned' | 'rope' | 'alibi' | 'none';
  /** With positions 'rope': true or { base (default 10000) } (Llama's rotate_half pairs); needs an even dModel / heads. */
  rope?: true | { base?: number };
  /** With positions 'alibi': true (Press et al.'s slopes, the only ones). */
  alibi?: true;
  /** Sliding window w >= 1: query t sees keys t - w + 1 .. t (Mistral's sliding_window). Default none. */
  window?: number;
  /** The MLP's hidden width; 0: attention-only. */
  mlp: number;
  /** PyTorch's GELU: 'none' (erf, the default) or 'tanh'. */
  gelu?: 'none' | 'tanh';
  /** The unembedding is the token embedding (tok.weight; the state_dict lists it as unembed.weight too). */
  tie?: boolean;
  /** Weight-initialisation seed (default 0): embeddings N(0, 1), linears U(+-1/sqrt(fan_in)), norms 1 and 0. */
  seed?: number;
}

/** The loss's targets: by default the next tokens (the last position does not count). */
export interface TransformerLossOptions {
  /** (B, T) target ids; they count everywhere lossMask does not exclude (elsewhere any integer, such as -100). */
  targets?: TokensLike;
  /** (B, T) of 0/1 (or booleans): the positions whose loss counts; at least one must. */
  lossMask?: { data: ArrayLike<number>; shape: readonly number[] } | (number | boolean)[][];
}

/** torch.optim.AdamW's options and defaults, and clip_grad_norm_'s max_norm. */
export interface AdamWOptions {
  learningRate: number;
  /** Default [0.9, 0.999]. */
  betas?: readonly [number, number];
  /** Default 1e-8. */
  eps?: number;
  /** Decoupled weight decay, default 1e-2. */
  weightDecay?: number;
  /** Scale every gradient by min(1, clip / (norm + 1e-6)) first; 0 (default): off. */
  clip?: number;
}

export interface TransformerStepOptions extends TransformerLossOptions {
  optimizer: AdamWOptions;
}

/** Name -> tensor, the names, shapes and row-major layouts of the PyTorch state_dict. */
export type TransformerParameters = Record<string, Tensor>;

/**
 * A model in wasm memory: its parameters, gradients and AdamW state stay there between calls (a
 * training step copies only the batch). dispose() frees them (a model dropped without it is freed
 * after garbage collection); later calls throw, as they do after a trap reset the module.
 */
export interface Transformer {
  /** The configuration as checked, its defaults filled in. */
  readonly config: Readonly<Required<Omit<TransformerConfig, 'rope' | 'alibi' | 'window'>>> & { rope?: { base: number }; window?: number };
  /** Parameters counted once (a tied embedding once). */
  readonly parameterCount: number;
  /** The parameters in state_dict order (a tied model's unembed.weight is tok.weight, listed once). */
  readonly layout: readonly { readonly name: string; readonly shape: readonly number[] }[];
  /** AdamW steps taken. */
  readonly steps: number;
  /** tokens (B, T) -> logits (B, T, vocab); trace: every layer's attention weights and the residual stream after it. */
  forward(
    tokens: TokensLike,
    options?: { trace?: boolean },
  ): {
    logits: Tensor;
    trace?: { /** (B, layers, heads, T, T) */ attentions: Tensor; /** per layer (B, T, dModel) */ residual: Tensor[] };
  };
  /** The mean cross-entropy over the positions that count and every parameter's gradient (tied: tok.weight once). */
  gradients(tokens: TokensLike, options?: TransformerLossOptions): { loss: number; gradients: TransformerParameters };
  /**
   * gradients(), then one AdamW step -> the loss before it. A loss or gradient that is not finite
   * throws a RangeError and changes nothing.
   */
  trainStep(tokens: TokensLike, options: TransformerStepOptions): { loss: number };
  /** Copies of the parameters: the PyTorch state_dict (a tied model lists unembed.weight too). */
  parameters(): TransformerParameters;
  /**
   * Replaces every parameter from a state_dict-like map (object or Map): a missing, unknown or
   * misshapen tensor is refused by name and nothing changes. A tied model takes tok.weight and/or
   * unembed.weight (equal); train_induction.py's layers.{i}.causal buffers are ignored. The AdamW
   * state is kept, as PyTorch's load_state_dict keeps an optimizer's.
   */
  setParameters(parameters: Record<string, TensorLike> | Map<string, TensorLike>): void;
  dispose(): void;
}

export interface Attention {
  readonly backend: 'wasm-simd' | 'wasm-relaxed' | 'wasm-scalar';
  /** The kernels' instruction set, from the C++ core: 'wasm' (simd128 through xsimd), 'wasm+relaxed' (the same with relaxed_madd) or 'scalar'. */
  readonly arch: string;
  /** Which build answers: its name and its products' register tile, both fixed when it was compiled. */
  readonly build: BuildInfo;

  /**
   * x of rank 1 to 4 -> weights of x's shape: (B, H, Tq, Tk), (B, Tq, Tk) (H = 1, as for q),
   * (Tq, Tk) or (Tk). validLens is (B) or (B, Tq) in those letters (d2l's masked_softmax).
   * -Infinity in x is allowed (a masked score); a row with nothing visible gives zeros.
   */
  maskedSoftmax(x: TensorLike, options?: MaskOptions): Tensor;
  /** dWeights (the gradient at the weights, y) -> dx = y * (dWeights - sum(y * dWeights)) per row; with mask options, masked entries get 0. */
  maskedSoftmaxBackward(weights: TensorLike, dWeights: TensorLike, options?: MaskOptions): Tensor;

  /** q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv); rank 3 = (B, T, d), rank 2 = (T, d). */
  scaledDotProductAttention(q: TensorLike, k: TensorLike, v: TensorLike, options?: SdpaOptions): AttentionResult;
  scaledDotProductAttentionBackward(q: TensorLike, k: TensorLike, v: TensorLike, dOutput: TensorLike, options?: SdpaBackwardOptions): SdpaGradients;

  /**
   * q (.., Tq, dq), k (.., Tk, dk), v (.., Tk, dv) with the score a(q, k) of `scoring` (default
   * 'scaled-dot'); additive attention (w_v . tanh(q Wq + k Wk)) is
   * attention(q, k, v, { scoring: 'additive', params: { wq, wk, wv } }).
   */
  attention(q: TensorLike, k: TensorLike, v: TensorLike, options?: AttentionOptions): AttentionResult;
  attentionBackward(q: TensorLike, k: TensorLike, v: TensorLike, dOutput: TensorLike, options?: AttentionBackwardOptions): AttentionGradients;

  selfAttention(options: SelfAttentionOptions): AttentionLayer;
  multiHeadAttention(options: MultiHeadAttentionOptions): AttentionLayer;
  /** A transformer that trains in wasm memory, seeded; see Transformer. */
  transformer(config: TransformerConfig): Transformer;

  /**
   * x (..., T, d), d even -> y of x's shape: each pair (a, b) of row t rotated by the angle
   * (offset + t) base^(-2i/d), a' = a cos - b sin, b' = b cos + a sin. Angles, cosines and sines
   * are computed in float64 and rounded once to float32. Leading axes (B, H, ...) are independent.
   */
  rope(x: TensorLike, options?: RopeOptions): Tensor;
  /** dOutput (..., T, d) -> dx of the same shape: the rotation by the opposite angles. */
  ropeBackward(dOutput: TensorLike, options?: RopeOptions): Tensor;
}

export interface LoadOptions {
  /**
   * Force the SIMD (true), relaxed-SIMD ('relaxed') or scalar (false) build; default: relaxed SIMD
   * when WebAssembly.validate accepts it (the fastest), else SIMD when it accepts simd128, else
   * scalar. For numbers identical on every machine ask for { simd: simdSupported() }. The relaxed
   * build is the SIMD build with its multiply-adds as
   * f32x4.relaxed_madd (one rounding where the CPU has FMA, so results differ from the SIMD build in
   * the last bits, and may differ between machines); engines: Chrome/Edge 114+, Firefox 145+,
   * Node 22+ (Node 20 with --experimental-wasm-relaxed-simd). `backend` says which build was loaded.
   * true or 'relaxed' on an engine without that feature rejects with an Error.
   */
  simd?: boolean | 'relaxed';
  /** Where to fetch the .wasm from (browsers). */
  wasmUrl?: string | URL;
  /** The .wasm bytes, if you already have them (of the build `simd` selects). Not cached. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/**
 * A build of the wasm core: 'simd' (simd128), 'relaxed' (the same with f32x4.relaxed_madd) or
 * 'scalar', and the register tile its products run, rows x vectors ('2x4' in the SIMD builds,
 * '4x2' of single floats in the scalar one; docs/performance.md says why).
 */
export interface BuildInfo {
  readonly name: 'simd' | 'relaxed' | 'scalar';
  readonly tile: '2x4' | '4x2';
}

/**
 * Options of the multi-threaded API (loadAttention({ threads }), createAttentionWorker()).
 * A pool of workers (Web Workers in browsers, worker_threads in Node), each with its own module
 * instance: no SharedArrayBuffer, so no cross-origin isolation is needed.
 */
export interface ParallelOptions extends LoadOptions {
  /**
   * Workers in the pool, an integer in [1, 64]; more than the machine's cores
   * (navigator.hardwareConcurrency, os.availableParallelism()) only adds overhead. Each worker
   * holds its own wasm memory, which grows to the largest share of a call it ran and stays.
   */
  threads: number;
  /**
   * Calls smaller than this many multiply-adds (B * H * Tq * Tk * (d + dv)) run inline on the
   * calling thread, where a round trip to a worker would cost more than the arithmetic.
   * Default 2^20 (about 0.1 ms of work); 0 sends every call to the workers.
   */
  inlineBelow?: number;
}

/**
 * The threaded form of a synchronous API: the same members, every method taking the same
 * arguments and returning its result in a Promise (a layer it creates lives on a worker, so
 * an AttentionLayer result becomes a ParallelAttentionLayer). Written as a mapping so the two
 * APIs cannot drift apart.
 */
export type Threaded<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<R extends AttentionLayer ? ParallelAttentionLayer : R extends Transformer ? ParallelTransformer : R>
    : T[K];
};

/**
 * A Transformer kept on one worker of the pool, so that training runs off the calling thread: the
 * same members, every method returning a Promise. If its worker dies, the model goes with it (its
 * calls reject and say so); dispose() frees it, as does disposing the pool.
 */
export type ParallelTransformer = Threaded<Transformer>;

/**
 * An AttentionLayer kept on one worker of the pool: the same methods, returning Promises, except
 * createCache (a KV cache lives with a synchronous layer).
 *
 * The layer lives and dies with its worker. If that worker dies (a crash, running out of memory),
 * the pool starts a fresh one for later calls, but the layer is lost: every later call of this
 * handle (forward, backward, step, parameters, setParameters), and one in flight when the worker
 * died, rejects with an Error "<name>.<method>: this layer was lost with its worker ...; create the
 * layer again", forever; it never reaches a layer created since. dispose() of a lost layer
 * resolves (there is nothing left to free).
 */
export type ParallelAttentionLayer = Threaded<Omit<AttentionLayer, 'createCache'>>;

/**
 * The Attention API on a pool of workers: the same methods, arguments and results, as Promises.
 * Arguments are checked on the calling thread first, so bad input rejects with the same TypeError
 * or RangeError (same message) as the synchronous call throws, before anything reaches a worker.
 * scaledDotProductAttention, its backward, and attention / attentionBackward with 'dot' or
 * 'scaled-dot' scoring are split across the workers by heads (B * H) and, when there are fewer
 * heads than workers, by blocks of query rows; the backward splits by kv-head groups and sums dk,
 * dv where workers share a kv head (so results may differ from the synchronous call by float
 * rounding of that sum). A call with dropout runs whole on one worker (its keep mask depends on the
 * global (b, h, i, j)). The other methods run whole on the least busy worker. Inputs are copied,
 * never detached; results are fresh arrays.
 */
export interface ParallelAttention extends Threaded<Attention> {
  /** Workers in the pool. */
  readonly threads: number;
  /**
   * Terminates the workers (in Node nothing of the pool keeps the process alive afterwards; idle
   * workers never do). Calls in flight and calls made afterwards reject with an Error.
   */
  dispose(): void;
}

/** With `threads`: the same API on a pool of that many workers, every method returning a Promise. */
export function loadAttention(options: ParallelOptions): Promise<ParallelAttention>;
/**
 * Loads (once per backend) and returns the attention module: synchronous methods on the calling
 * thread. This is the default and works on every page.
 */
export function loadAttention(options?: LoadOptions): Promise<Attention>;

/** True when this JS engine validates WebAssembly SIMD (simd128). */
export function simdSupported(): boolean;
/** True when this JS engine validates WebAssembly relaxed SIMD (f32x4.relaxed_madd). */
export function relaxedSimdSupported(): boolean;

/**
 * Any TensorLike as a checked { data, shape } (the conversion every call of this API makes):
 * nested arrays must not be ragged nor hold more than 2 GiB of ArrayType (RangeError, checked before
 * anything is allocated), data must hold numbers and fit the shape, a typed array must not be
 * detached (TypeError "name is detached"); errors name `name`.
 * Data already of the wanted type is shared, not copied.
 */
export function toTensor(value: TensorLike, name?: string): Tensor;
export function toTensor<
  A extends Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | Uint8Array | Uint8ClampedArray | Uint16Array | Uint32Array,
>(value: TensorLike, name: string, ArrayType: { new (length: number): A; readonly BYTES_PER_ELEMENT: number }): { data: A; shape: number[] };
