// The transformer goldens of tests/golden/transformer (float64 PyTorch, tests/golden/
// gen_transformer_golden.py), read through Vite (?raw), so one file works in Node and Chromium.
// Not a test file. Each file: a config line, an optimizer line (lr, beta1, beta2, eps, weight
// decay, clip), then "kind name count values..." lines (kinds: ints, floats, param, grad, after).

const FILES = import.meta.glob('../../golden/transformer/*.txt', { query: '?raw', import: 'default', eager: true });

const POSITIONS = ['learned', 'rope', 'alibi', 'none'];
const GELUS = ['none', 'tanh'];

/** The golden `name` (file name without .txt) -> { config, optimizer, values: Map('kind name' -> number[]) }. */
export function loadGolden(name) {
  const text = FILES[`../../golden/transformer/${name}.txt`];
  if (text === undefined) throw new Error(`no golden tests/golden/transformer/${name}.txt`);
  const golden = { config: {}, optimizer: [], values: new Map() };
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0] === 'config') for (let i = 1; i + 1 < words.length; i += 2) golden.config[words[i]] = Number(words[i + 1]);
    else if (words[0] === 'optimizer') golden.optimizer = words.slice(1).map(Number);
    else if (words.length >= 3) golden.values.set(`${words[0]} ${words[1]}`, words.slice(3).map(Number));
  }
  return golden;
}

/**
 * transformer.py's Config as the safetensors metadata holds it (enums by name) -> attn.transformer's
 * configuration (also transformer-safetensors.test.js).
 */
export function transformerConfig(c) {
  return {
    vocab: c.vocab,
    dModel: c.d_model,
    layers: c.layers,
    heads: c.heads,
    kvHeads: c.kv_heads || c.heads,
    maxLength: c.max_length,
    positions: c.positions,
    ...(c.positions === 'rope' && c.rope_base !== undefined ? { rope: { base: c.rope_base } } : {}),
    ...(c.window > 0 ? { window: c.window } : {}),
    mlp: c.mlp,
    gelu: c.gelu,
    tie: c.tie,
  };
}

/** The attn.transformer configuration of a golden's config line (enums by index, tie 0 or 1). */
export function modelConfig(c) {
  return transformerConfig({ ...c, positions: POSITIONS[c.positions], gelu: GELUS[c.gelu], tie: c.tie !== 0 });
}

/** The golden's AdamW options as trainStep takes them. */
export function optimizerOf([learningRate, beta1, beta2, eps, weightDecay, clip]) {
  return { learningRate, betas: [beta1, beta2], eps, weightDecay, clip };
}

/** The names of the golden cases (every file but the loss curve). */
export const GOLDEN_CASES = Object.keys(FILES)
  .map((path) => path.match(/([\w]+)\.txt$/)[1])
  .filter((name) => name !== 'induction_curve')
  .sort();

/**
 * splitmix64 and the induction batches of gen_transformer_golden.py (and tests/cpp/
 * transformer_curve_test.cpp): per sequence a period P in [5, 12], the first P letters of a
 * Fisher-Yates shuffle of the V letters, repeated over T.
 */
export function splitmix64(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

export function inductionBatch(next, B, T, V) {
  const tokens = new Int32Array(B * T);
  for (let b = 0; b < B; b++) {
    const P = 5 + Number(next() % 8n);
    const letters = Array.from({ length: V }, (_, i) => i);
    for (let i = V - 1; i > 0; i--) {
      const j = Number(next() % BigInt(i + 1));
      [letters[i], letters[j]] = [letters[j], letters[i]];
    }
    for (let t = 0; t < T; t++) tokens[b * T + t] = letters[t % P];
  }
  return { data: tokens, shape: [B, T] };
}
