// The multi-threaded API (loadAttention({ threads })): the same results as the synchronous API for
// every way a call can be cut (heads, kv groups, query blocks of causal heads, whole calls), the
// same errors, and workers that go away on dispose(). Every equivalence case forces the workers
// (inlineBelow: 0); the last describe checks the pure split plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { planSdpa, rowRanges, subCallSpans } from '../../../web/src/threads/plan.js';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { expectSameError } from '../support/thrown.js';

// Why not exact: a sub-call is a smaller attention (fewer rows, or a causal block over its first Tk'
// keys), which the kernels may tile differently, and the backward adds dk, dv partials of workers
// that share a kv head in another order. Both change float32 rounding only: values here are O(1)
// sums of at most ~100 terms, whose rounding stays below 1e-6; a wrong offset, mask or causal
// block gives errors of 1e-2 or more.
const SAME = { atol: 1e-5, rtol: 1e-5 };

const boolMask = (rand, shape) => ({
  data: Uint8Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => (rand() > -0.6 ? 1 : 0)),
  shape,
});

/**
 * One case per way of cutting: [label, pool size, { B, H, Hkv, Tq, Tk, d, dv }, options(rand)].
 * B*H below and above the pool, GQA groups cut inside, causal blocks (top-left with Tq > Tk, where
 * rows past Tk - 1 see every key; bottom-right with fully masked rows), masks, and the rules that
 * keep heads or calls whole.
 */
const CASES = [
  ['heads, B*H = 8 > 2 workers', 2, { B: 1, H: 8, Hkv: 8, Tq: 24, Tk: 24, d: 8, dv: 8 }, () => ({})],
  ['GQA whole kv groups, causal', 2, { B: 2, H: 4, Hkv: 2, Tq: 20, Tk: 20, d: 8, dv: 4 }, () => ({ causal: true })],
  ['GQA groups cut inside (H=6, Hkv=2, 4 workers)', 4, { B: 1, H: 6, Hkv: 2, Tq: 18, Tk: 23, d: 4, dv: 8 }, () => ({})],
  [
    'one head, 3 workers: query blocks, top-left causal with Tq > Tk',
    3,
    { B: 1, H: 1, Hkv: 1, Tq: 37, Tk: 29, d: 8, dv: 8 },
    () => ({ causal: 'top-left', returnLse: true }),
  ],
  [
    'one head, 2 workers: bottom-right causal, fully masked rows',
    2,
    { B: 1, H: 1, Hkv: 1, Tq: 40, Tk: 12, d: 4, dv: 4 },
    () => ({ causal: 'bottom-right', returnLse: true }),
  ],
  ['B*H = 2 < 3 workers, GQA, causal with Tq < Tk', 3, { B: 1, H: 2, Hkv: 1, Tq: 15, Tk: 33, d: 8, dv: 8 }, () => ({ causal: true })],
  [
    'validLens per row and a broadcast bool attnMask',
    3,
    { B: 2, H: 2, Hkv: 2, Tq: 13, Tk: 17, d: 4, dv: 4 },
    (rand) => ({
      validLens: Array.from({ length: 2 }, (_, b) => Array.from({ length: 13 }, (_, i) => (b * 7 + i * 3) % 19)),
      attnMask: boolMask(rand, [2, 1, 1, 17]),
    }),
  ],
  [
    'float attnMask (B, H, Tq, Tk), softcap, scale, query blocks',
    2,
    { B: 1, H: 1, Hkv: 1, Tq: 21, Tk: 16, d: 8, dv: 8 },
    (rand) => ({
      attnMask: { data: Float32Array.from({ length: 21 * 16 }, () => (rand() > 0.8 ? -Infinity : rand())), shape: [1, 1, 21, 16] },
      softcap: 2,
      scale: 0.7,
      causal: true,
    }),
  ],
  [
    'weights and trace with causal keep heads whole',
    3,
    { B: 1, H: 3, Hkv: 1, Tq: 9, Tk: 11, d: 4, dv: 4 },
    () => ({ causal: true, returnWeights: true, trace: true, softcap: 3 }),
  ],
  [
    'weights without causal may cut query blocks',
    2,
    { B: 1, H: 1, Hkv: 1, Tq: 9, Tk: 11, d: 4, dv: 4 },
    () => ({ returnWeights: true, trace: true, returnLse: true }),
  ],
  [
    'maskFill with causal keeps heads whole',
    2,
    { B: 1, H: 3, Hkv: 3, Tq: 10, Tk: 6, d: 4, dv: 4 },
    () => ({ causal: 'bottom-right', maskFill: -1e6, validLens: [3] }),
  ],
  ['dropout runs the whole call on one worker', 2, { B: 2, H: 2, Hkv: 1, Tq: 12, Tk: 12, d: 4, dv: 4 }, () => ({ dropout: 0.3, dropoutSeed: 11 })],
  [
    'a window keeps heads whole (its diagonal is i + Tk - Tq)',
    3,
    { B: 1, H: 2, Hkv: 1, Tq: 30, Tk: 40, d: 4, dv: 4 },
    () => ({ window: [5, 2], returnLse: true }),
  ],
  [
    "ALiBi sends each worker its heads' slopes (H=6, Hkv=2, 4 workers)",
    4,
    { B: 1, H: 6, Hkv: 2, Tq: 18, Tk: 23, d: 4, dv: 8 },
    () => ({ alibi: true, window: [-1, 0] }),
  ],
];

function inputsOf(rand, { B, H, Hkv, Tq, Tk, d, dv }) {
  return {
    q: randomTensor(rand, [B, H, Tq, d]),
    k: randomTensor(rand, [B, Hkv, Tk, d]),
    v: randomTensor(rand, [B, Hkv, Tk, dv]),
    dout: randomTensor(rand, [B, H, Tq, dv]),
  };
}

/** Every tensor of a result (output, weights, trace.*, lse, dq, ...) against the synchronous one. */
function expectSameResult(actual, expected, label) {
  const flat = (r, prefix = '') => Object.entries(r).flatMap(([key, value]) => ('data' in value ? [[prefix + key, value]] : flat(value, `${key}.`)));
  const got = Object.fromEntries(flat(actual));
  const want = flat(expected);
  expect(Object.keys(got).sort()).toEqual(want.map(([key]) => key).sort());
  for (const [key, tensor] of want) expectClose(got[key], tensor, { ...SAME, label: `${label}: ${key}` });
}

describe.each(BACKENDS)('the parallel API gives the synchronous results ($backend)', ({ simd, backend }) => {
  let sync;
  const pools = new Map(); // threads -> ParallelAttention
  beforeAll(async () => {
    sync = await loadBackend({ simd, backend });
    for (const threads of new Set(CASES.map(([, t]) => t))) {
      pools.set(threads, await loadAttention({ simd, threads, inlineBelow: 0 }));
    }
  });
  afterAll(() => pools.forEach((pool) => pool.dispose()));

  it('reports its build and pool size', () => {
    expect(pools.get(2).backend).toBe(backend);
    expect(pools.get(2).arch).toBe(sync.arch);
    expect(pools.get(3).threads).toBe(3);
  });

  it.each(CASES)('%s: forward and backward', async (label, threads, dims, optionsOf) => {
    const rand = seededRandom(label.length * 31 + threads);
    const { q, k, v, dout } = inputsOf(rand, dims);
    const options = optionsOf(rand);
    const parallel = pools.get(threads);
    expectSameResult(await parallel.scaledDotProductAttention(q, k, v, options), sync.scaledDotProductAttention(q, k, v, options), label);
    const { returnWeights, trace, returnLse, ...backwardOptions } = options;
    expectSameResult(
      await parallel.scaledDotProductAttentionBackward(q, k, v, dout, backwardOptions),
      sync.scaledDotProductAttentionBackward(q, k, v, dout, backwardOptions),
      `${label} (backward)`,
    );
  });

  it('takes rank-3 and rank-2 inputs and answers in their rank', async () => {
    const rand = seededRandom(5);
    const parallel = pools.get(3);
    for (const shape of [
      [2, 19, 8],
      [19, 8],
    ]) {
      const [q, k, v, dout] = [0, 1, 2, 3].map(() => randomTensor(rand, shape));
      expectSameResult(
        await parallel.scaledDotProductAttention(q, k, v, { causal: true }),
        sync.scaledDotProductAttention(q, k, v, { causal: true }),
        `rank ${shape.length}`,
      );
      expectSameResult(
        await parallel.scaledDotProductAttentionBackward(q, k, v, dout),
        sync.scaledDotProductAttentionBackward(q, k, v, dout),
        `rank ${shape.length} backward`,
      );
    }
  });

  it("leaves the caller's input arrays intact (copied, never transferred)", async () => {
    const rand = seededRandom(6);
    const { q, k, v } = inputsOf(rand, { B: 1, H: 4, Hkv: 4, Tq: 8, Tk: 8, d: 4, dv: 4 });
    const before = q.data.slice();
    await pools.get(2).scaledDotProductAttention(q, k, v);
    expect(q.data.byteLength).toBe(before.byteLength);
    expect(q.data).toEqual(before);
  });

  it('attention() splits the dot-product scorings and runs the others on a worker', async () => {
    const rand = seededRandom(7);
    const { q, k, v, dout } = inputsOf(rand, { B: 1, H: 4, Hkv: 2, Tq: 10, Tk: 12, d: 6, dv: 5 });
    const w = randomTensor(rand, [6, 6]);
    const parallel = pools.get(2);
    for (const options of [
      { scoring: 'dot', causal: true },
      { scoring: 'general', params: { w }, validLens: [7] },
    ]) {
      expectSameResult(await parallel.attention(q, k, v, options), sync.attention(q, k, v, options), options.scoring);
      expectSameResult(await parallel.attentionBackward(q, k, v, dout, options), sync.attentionBackward(q, k, v, dout, options), `${options.scoring} backward`);
    }
  });

  it('runs maskedSoftmax and additive attention on a worker', async () => {
    const rand = seededRandom(8);
    const parallel = pools.get(2);
    const x = randomTensor(rand, [2, 3, 5, 7]);
    expectSameResult({ y: await parallel.maskedSoftmax(x, { causal: true }) }, { y: sync.maskedSoftmax(x, { causal: true }) }, 'maskedSoftmax');
    const q = randomTensor(rand, [2, 4, 3]);
    const k = randomTensor(rand, [2, 6, 5]);
    const v = randomTensor(rand, [2, 6, 2]);
    const params = { wq: randomTensor(rand, [3, 7]), wk: randomTensor(rand, [5, 7]), wv: randomTensor(rand, [7]) };
    const additive = { scoring: 'additive', params };
    expectSameResult(await parallel.attention(q, k, v, additive), sync.attention(q, k, v, additive), 'additive');
  });

  it('keeps a layer on a worker: forward, backward, step and parameters as the synchronous layer', async () => {
    const rand = seededRandom(9);
    const options = { dModel: 8, heads: 4, kvHeads: 2, causal: true, seed: 3 };
    const local = sync.multiHeadAttention(options);
    const remote = await pools.get(2).multiHeadAttention(options);
    expect(remote.config).toEqual(local.config);
    const x = randomTensor(rand, [2, 5, 8]);
    const g = randomTensor(rand, [2, 5, 8]);
    expectSameResult(await remote.forward(x, { trace: false }), local.forward(x, { trace: false }), 'layer forward');
    expectSameResult(await remote.backward(g), local.backward(g), 'layer backward');
    await remote.step(0.1);
    local.step(0.1);
    expectSameResult(await remote.parameters(), local.parameters(), 'parameters after step');
    await remote.dispose();
    await expect(remote.forward(x)).rejects.toThrow('multiHeadAttention.forward: this layer was disposed');
  });
});

describe('errors of the parallel API', () => {
  let sync;
  let parallel;
  beforeAll(async () => {
    sync = await loadAttention();
    parallel = await loadAttention({ threads: 2, inlineBelow: 0 });
  });
  afterAll(() => parallel.dispose());

  const rand = seededRandom(12);
  const q = randomTensor(rand, [1, 2, 4, 3]);
  const k = randomTensor(rand, [1, 2, 5, 3]);
  const v = randomTensor(rand, [1, 2, 5, 2]);
  const nan = { data: Float32Array.of(1, NaN, 0, 0, 0, 0), shape: [2, 3] };

  it.each([
    ['a shape mismatch (RangeError)', (a) => a.scaledDotProductAttention(q, randomTensor(rand, [1, 2, 5, 4]), v)],
    ['an unknown option (TypeError)', (a) => a.scaledDotProductAttention(q, k, v, { casual: true })],
    ['NaN in the input (TypeError)', (a) => a.scaledDotProductAttention(nan, nan, nan)],
    ['a dOutput of the wrong shape (RangeError)', (a) => a.scaledDotProductAttentionBackward(q, k, v, randomTensor(rand, [1, 2, 4, 3]))],
    ['a missing dOutput (TypeError)', (a) => a.scaledDotProductAttentionBackward(q, k, v, undefined)],
    ['validLens of the wrong shape (RangeError)', (a) => a.attention(q, k, v, { validLens: [1, 2] })],
    ['softcap with a non-dot scoring (TypeError)', (a) => a.attention(q, k, v, { scoring: 'general', params: { w: randomTensor(rand, [3, 3]) }, softcap: 1 })],
    [
      'a request larger than one wasm allocation (RangeError)',
      (a) => {
        const long = { data: new Float32Array(1_000_000), shape: [1_000_000, 1] };
        return a.scaledDotProductAttention(long, long, long, { returnWeights: true });
      },
    ],
  ])('%s is rejected with the synchronous error, checked before any worker', async (label, call) => {
    await expectSameError(
      () => call(sync),
      () => call(parallel),
    );
  });

  it.each([
    ['maskedSoftmax without x (TypeError)', (a) => a.maskedSoftmax(null)],
    ["attention({ scoring: 'additive' }) without weights (TypeError)", (a) => a.attention(q, k, v, { scoring: 'additive' })],
    ['a ragged nested array (RangeError)', (a) => a.maskedSoftmax([[1, 2], [3]])],
  ])('%s, raised inside a worker, reaches the caller as the same error', async (label, call) => {
    await expectSameError(
      () => call(sync),
      () => call(parallel),
    );
  });

  it('an argument no worker can receive (a function) fails as in the synchronous API', async () => {
    const x = [
      [1, 2],
      [3, 4],
    ];
    await expectSameError(
      () => sync.maskedSoftmax(x, { causal: () => true }),
      () => parallel.maskedSoftmax(x, { causal: () => true }),
    );
    expect(await parallel.maskedSoftmax(x)).toEqual(sync.maskedSoftmax(x)); // and the pool still works
  });

  it("a layer method called out of order rejects with the layer's own error", async () => {
    const options = { dModel: 4, heads: 2 };
    const local = sync.multiHeadAttention(options);
    const remote = await parallel.multiHeadAttention(options);
    await expectSameError(
      () => local.backward([[1, 2, 3, 4]]),
      () => remote.backward([[1, 2, 3, 4]]),
    );
  });

  it('rejects bad pool options with TypeError or RangeError', async () => {
    await expect(loadAttention({ threads: 0 })).rejects.toThrow(RangeError);
    await expect(loadAttention({ threads: 1.5 })).rejects.toThrow('loadAttention: threads must be an integer in [1, 64], got 1.5');
    await expect(loadAttention({ threads: '2' })).rejects.toThrow(TypeError);
    await expect(loadAttention({ threads: 2, inlineBelow: -1 })).rejects.toThrow(TypeError);
    await expect(loadAttention({ threads: 2, workers: 2 })).rejects.toThrow("loadAttention: unknown option 'workers'");
  });
});

describe('dispose()', () => {
  it('rejects the calls in flight and every later call', async () => {
    const parallel = await loadAttention({ threads: 2, inlineBelow: 0 });
    const rand = seededRandom(13);
    const q = randomTensor(rand, [1, 4, 64, 16]);
    const inFlight = parallel.scaledDotProductAttention(q, q, q);
    parallel.dispose();
    await expect(inFlight).rejects.toThrow('this parallel attention was disposed');
    await expect(parallel.scaledDotProductAttention(q, q, q)).rejects.toThrow('scaledDotProductAttention: this parallel attention was disposed');
    await expect(parallel.maskedSoftmax(q)).rejects.toThrow('maskedSoftmax: this parallel attention was disposed');
  });

  it('small calls run inline by default and give the synchronous result', async () => {
    const parallel = await loadAttention({ threads: 1 });
    const sync = await loadAttention();
    const x = [
      [1, 2, 0, 1],
      [0, 1, 1, 0],
      [2, 0, 1, 1],
      [1, 1, 1, 1],
    ];
    expect((await parallel.scaledDotProductAttention(x, x, x)).output).toEqual(sync.scaledDotProductAttention(x, x, x).output);
    parallel.dispose();
  });
});

// Node only: whether the pool's workers let the process end is visible from outside the process.
const nodeOnly = typeof globalThis.process?.versions?.node === 'string' && typeof globalThis.document === 'undefined';

describe.runIf(nodeOnly)('worker lifetime in Node', () => {
  /** Runs `body` as a fresh node process's ES module and returns { status, stdout, stderr }. */
  async function runNode(body) {
    // In variables: the browser project must not try to resolve Node built-ins.
    const [childProcess, fs, os, path] = ['node:child_process', 'node:fs', 'node:os', 'node:path'];
    const { spawnSync } = await import(/* @vite-ignore */ childProcess);
    const { mkdtempSync, rmSync, writeFileSync } = await import(/* @vite-ignore */ fs);
    const { tmpdir } = await import(/* @vite-ignore */ os);
    const { join } = await import(/* @vite-ignore */ path);
    const entry = new URL('../../../web/src/index.js', import.meta.url).href;
    const dir = mkdtempSync(join(tmpdir(), 'attnlab-pool-'));
    const file = join(dir, 'script.mjs');
    writeFileSync(file, `import { loadAttention } from ${JSON.stringify(entry)};\n${body}`);
    try {
      // NODE_OPTIONS cleared: the test runner's own flags are not for this process. The timeout
      // only turns a hang (a worker keeping the process alive) into a failure.
      return spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('after dispose(), the workers are terminated and the process exits by itself', async () => {
    const run = await runNode(`
      const attn = await loadAttention({ threads: 2, inlineBelow: 0 });
      const x = [[1, 0], [0, 1], [1, 1]];
      const { output } = await attn.scaledDotProductAttention(x, x, x);
      attn.dispose();
      console.log('computed', output.shape.join('x'));`);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('computed 3x2');
    expect(run.status).toBe(0);
  });

  it('idle workers never keep the process alive, even without dispose()', async () => {
    const run = await runNode(`
      const attn = await loadAttention({ threads: 2, inlineBelow: 0 });
      const x = [[1, 0], [0, 1]];
      await attn.scaledDotProductAttention(x, x, x);
      console.log('done');`);
    expect(run.error).toBeUndefined();
    expect(run.stdout.trim()).toBe('done');
    expect(run.status).toBe(0);
  });
});

describe('the split plan', () => {
  const dims = (B, H, Hkv, Tq, Tk) => ({ B, H, Hkv, Tq, Tk });
  const NO_MASK = { validLensPerRow: false, strideB: 0, strideH: 0, strideI: 0, strideJ: 0 };

  /** Every (b, h, i) row of the call: which sub-calls compute it (must be exactly one, or a skipped one). */
  function rowCoverage(d, plan) {
    const covered = new Int32Array(d.B * d.H * d.Tq);
    for (const call of plan.flat()) {
      const [first, count] = subCallSpans(d, NO_MASK, call).rows(1);
      for (let r = first; r < first + count; r++) covered[r]++;
    }
    return covered;
  }

  it.each([
    ['MHA, 2 workers', dims(2, 4, 4, 16, 16), 0, 2],
    ['GQA cut inside groups, 4 workers', dims(1, 6, 2, 9, 9), 1, 4],
    ['one head, 5 workers, top-left with Tq > Tk', dims(1, 1, 1, 50, 20), 1, 5],
    ['bottom-right with fully masked rows, 3 workers', dims(1, 2, 1, 30, 7), 2, 3],
    ['more workers than rows', dims(1, 1, 1, 3, 5), 1, 8],
  ])('%s: every query row is computed exactly once', (label, d, causal, workers) => {
    const plan = planSdpa(d, causal, workers, { wholeCall: false, wholeHeads: false });
    expect(plan.length).toBeLessThanOrEqual(workers);
    const covered = rowCoverage(d, plan);
    const wrong = covered.findIndex((n) => n !== 1);
    expect(wrong, `row ${wrong} computed ${covered[wrong]} times`).toBe(-1);
    for (const call of plan.flat()) {
      expect(call.keys).toBeLessThanOrEqual(d.Tk);
      expect(call.nH % call.nKv).toBe(0);
    }
  });

  it('cuts a causal head by area: both halves see about as many keys', () => {
    // Top-left, Tq = Tk = 1024: row i sees i + 1 keys, so half the work ends near row 1024 / sqrt(2).
    const [[, cut]] = rowRanges(dims(1, 1, 1, 1024, 1024), 1, 2, false);
    expect(cut).toBeGreaterThan(720);
    expect(cut).toBeLessThan(727);
  });

  it('keeps heads whole when asked, and the whole call in one piece for dropout', () => {
    const d = dims(2, 3, 1, 10, 10);
    const byHeads = planSdpa(d, 1, 4, { wholeCall: false, wholeHeads: true }).flat();
    expect(byHeads.every((call) => call.i0 === 0 && call.rows === 10 && call.keys === 10 && call.causal === 1)).toBe(true);
    expect(planSdpa(d, 1, 4, { wholeCall: true, wholeHeads: false })).toEqual([
      [{ b: 0, nB: 2, h: 0, nH: 3, kv: 0, nKv: 1, i0: 0, rows: 10, keys: 10, causal: 1, skip: false }],
    ]);
  });
});
