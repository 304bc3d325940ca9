// Bad input (issue 2, "Bad input"): every listed mistake gets a RangeError or TypeError whose message
// names the argument and gives the expected and the actual shape (or value); never an abort, a hang
// or a bare number; and the module computes correctly afterwards, also after 200 failing calls.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModule } from '../../../web/src/boundary/loader.js';
import { BACKENDS, heapState, loadBackend } from '../support/backends.js';
import { expectClose, tensor } from '../support/numeric.js';
import { SEED_004, SEED_004_QUOTED } from '../../support/seed-004.js';

// A valid rank-2 problem: q (Tq 3, d 4), k (Tk 5, d 4), v (Tk 5, dv 2).
const zeros = (...shape) => ({ data: new Float32Array(shape.reduce((a, b) => a * b, 1)), shape });
const q = zeros(3, 4);
const k = zeros(5, 4);
const v = zeros(5, 2);

/** A shape written as [2, 3], [2,3], (2, 3) or 2x3 / 2 x 3 / 2×3. */
function shapeText(shape) {
  const list = shape.join('\\s*,\\s*');
  const times = shape.join('\\s*[x×]\\s*');
  return new RegExp(`[\\[(]\\s*${list}\\s*[\\])]|\\b${times}\\b`);
}
const word = (w) => new RegExp(`(^|[^A-Za-z0-9_])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`);
const number = (n) => new RegExp(`(^|[^0-9.])${String(n).replace('.', '\\.')}($|[^0-9])`);

/**
 * The bad inputs. Each: what it calls, which error class(es), and what the message must contain:
 * the argument's name plus the expected and actual shapes or values (as regular expressions).
 */
const BAD_INPUTS = [
  {
    name: 'data length that does not match the shape',
    call: (a) => a.scaledDotProductAttention({ data: new Float32Array(11), shape: [3, 4] }, k, v),
    errors: [RangeError],
    mentions: [word('q'), number(11), /\b12\b|[[(]\s*3\s*,\s*4\s*[\])]|\b3\s*[x×]\s*4\b/],
  },
  {
    name: 'q and k of different widths',
    call: (a) => a.scaledDotProductAttention(q, zeros(5, 3), v),
    errors: [RangeError],
    mentions: [word('k'), shapeText([5, 3]), number(4)],
  },
  {
    name: 'k and v of different lengths',
    call: (a) => a.scaledDotProductAttention(q, k, zeros(6, 2)),
    errors: [RangeError],
    mentions: [word('v'), shapeText([6, 2]), number(5)],
  },
  {
    name: 'query heads that are not a multiple of the kv heads',
    call: (a) => a.scaledDotProductAttention(zeros(1, 3, 2, 4), zeros(1, 2, 5, 4), zeros(1, 2, 5, 2)),
    errors: [RangeError],
    mentions: [/\bheads?\b|\bHkv\b|\bk\b/i, number(3), number(2)],
  },
  {
    name: 'a negative valid length',
    call: (a) => a.scaledDotProductAttention(q, k, v, { validLens: [-1] }),
    errors: [RangeError],
    mentions: [word('validLens'), /-1\b/],
  },
  {
    name: 'a fractional valid length',
    call: (a) => a.scaledDotProductAttention(q, k, v, { validLens: [1.5] }),
    errors: [RangeError, TypeError],
    mentions: [word('validLens'), /1\.5/],
  },
  {
    name: 'validLens of a shape that is neither (B) nor (B, Tq)',
    call: (a) => a.scaledDotProductAttention(q, k, v, { validLens: [[1, 2]] }),
    errors: [RangeError],
    mentions: [word('validLens'), shapeText([1, 2]), /\b3\b/],
  },
  {
    name: 'a mask that does not broadcast to (B, H, Tq, Tk)',
    call: (a) => a.scaledDotProductAttention(q, k, v, { attnMask: { data: new Uint8Array(12), shape: [3, 4] } }),
    errors: [RangeError],
    mentions: [word('attnMask'), shapeText([3, 4]), number(5)],
  },
  {
    name: 'a mask whose data length does not match its shape',
    call: (a) => a.scaledDotProductAttention(q, k, v, { attnMask: { data: new Uint8Array(14), shape: [3, 5] } }),
    errors: [RangeError],
    mentions: [word('attnMask'), number(14), /\b15\b|[[(]\s*3\s*,\s*5\s*[\])]/],
  },
  {
    name: 'a non-numeric nested array',
    call: (a) =>
      a.scaledDotProductAttention(
        [
          [1, 'a', 3, 4],
          [1, 2, 3, 4],
          [1, 2, 3, 4],
        ],
        k,
        v,
      ),
    errors: [TypeError],
    mentions: [word('q')],
  },
  {
    name: 'a string where a tensor goes',
    call: (a) => a.maskedSoftmax('hello'),
    errors: [TypeError],
    mentions: [word('x')],
  },
  {
    name: 'ragged nested arrays',
    call: (a) =>
      a.maskedSoftmax([
        [1, 2, 3],
        [4, 5],
      ]),
    errors: [RangeError, TypeError],
    mentions: [word('x'), number(3), number(2)],
  },
  {
    name: 'an unknown causal value',
    call: (a) => a.scaledDotProductAttention(q, k, v, { causal: 'diagonal' }),
    errors: [RangeError, TypeError],
    mentions: [word('causal'), /diagonal/, /top-left/],
  },
  {
    name: 'a NaN scale',
    call: (a) => a.scaledDotProductAttention(q, k, v, { scale: NaN }),
    errors: [RangeError, TypeError],
    mentions: [word('scale'), /NaN/],
  },
  {
    name: 'a tensor of rank 5',
    call: (a) => a.scaledDotProductAttention(zeros(1, 1, 1, 3, 4), k, v),
    errors: [RangeError],
    mentions: [word('q'), /\b5\b/, /\b4\b/],
  },
  {
    name: 'a dropout probability of 1',
    call: (a) => a.scaledDotProductAttention(q, k, v, { dropout: 1 }),
    errors: [RangeError],
    mentions: [word('dropout'), /\b1\b/],
  },
  {
    name: "the dropout seed under its 0.1 name 'seed' (renamed dropoutSeed)",
    call: (a) => a.scaledDotProductAttention(q, k, v, { dropout: 0.1, seed: 3 }),
    errors: [TypeError],
    mentions: [word('seed'), word('dropoutSeed'), /renamed/],
  },
  {
    name: "the dropout seed of attention() under its 0.1 name 'seed'",
    call: (a) => a.attention(q, k, v, { dropout: 0.1, seed: 3 }),
    errors: [TypeError],
    mentions: [word('seed'), word('dropoutSeed'), /renamed/],
  },
  {
    name: 'a gradient of the wrong shape (sdpa backward)',
    call: (a) => a.scaledDotProductAttentionBackward(q, k, v, zeros(3, 3)),
    errors: [RangeError],
    mentions: [word('dOutput'), shapeText([3, 2]), shapeText([3, 3])],
  },
  {
    name: 'a gradient of the wrong shape (masked softmax backward)',
    call: (a) => a.maskedSoftmaxBackward(zeros(2, 3), zeros(3, 2)),
    errors: [RangeError],
    mentions: [word('dWeights'), shapeText([2, 3]), shapeText([3, 2])],
  },
  {
    name: 'missing additive weights',
    call: (a) => a.attention(q, k, v, { scoring: 'additive', params: { wk: zeros(4, 6), wv: zeros(6) } }),
    errors: [TypeError, RangeError],
    mentions: [word('wq')],
  },
  {
    name: 'an additive weight of the wrong shape',
    call: (a) => a.attention(q, k, v, { scoring: 'additive', params: { wq: zeros(5, 6), wk: zeros(4, 6), wv: zeros(6) } }),
    errors: [RangeError],
    mentions: [word('wq'), shapeText([5, 6]), number(4)],
  },
  {
    name: 'an unknown scoring',
    call: (a) => a.attention(q, k, v, { scoring: 'cosine' }),
    errors: [RangeError, TypeError],
    mentions: [word('scoring'), /cosine/],
  },
  {
    name: 'a layer input of the wrong width',
    call: (a) => a.selfAttention({ dIn: 4, dQ: 2, dOut: 2, seed: 1 }).forward(zeros(3, 5)),
    errors: [RangeError],
    mentions: [word('x'), shapeText([3, 5]), number(4)],
  },
  {
    name: 'multiHeadAttention with dModel not divisible by heads',
    call: (a) => a.multiHeadAttention({ dModel: 6, heads: 4 }),
    errors: [RangeError],
    mentions: [/dModel|heads/, number(6), number(4)],
  },
  {
    name: 'a request too large for wasm memory (weights of 60000 x 60000)',
    call: (a) => a.scaledDotProductAttention(zeros(60000, 1), zeros(60000, 1), zeros(60000, 1), { returnWeights: true }),
    errors: [RangeError],
    mentions: [/memory|too large/i],
  },
  // Sliding window, ALiBi and RoPE (issue 12).
  {
    name: 'a window side that is not an integer',
    call: (a) => a.scaledDotProductAttention(q, k, v, { window: [1.5, 0] }),
    errors: [RangeError],
    mentions: [word('window'), /left/, /1\.5/],
  },
  {
    name: 'a window side below -1',
    call: (a) => a.maskedSoftmax(zeros(3, 5), { window: [0, -2] }),
    errors: [RangeError],
    mentions: [word('window'), /right/, /-2\b/, />= -1/],
  },
  {
    name: 'a window that is not a pair',
    call: (a) => a.attention(q, k, v, { window: 3 }),
    errors: [TypeError],
    mentions: [word('window'), /\[left, right\]/, /number 3/],
  },
  {
    name: 'ALiBi slopes of the wrong length',
    call: (a) => a.scaledDotProductAttention(zeros(1, 2, 3, 4), zeros(1, 1, 5, 4), zeros(1, 1, 5, 2), { alibi: [0.5] }),
    errors: [RangeError],
    mentions: [word('alibi'), /H = 2/, /got 1\b/],
  },
  {
    name: 'an ALiBi slope that is not finite',
    call: (a) => a.maskedSoftmax(zeros(3, 5), { alibi: [NaN] }),
    errors: [RangeError],
    mentions: [word('alibi'), /NaN/, /finite/],
  },
  {
    name: 'ALiBi given as a string',
    call: (a) => a.scaledDotProductAttention(q, k, v, { alibi: 'paper' }),
    errors: [TypeError],
    mentions: [word('alibi'), /paper/],
  },
  {
    name: 'rope on an odd head width',
    call: (a) => a.rope(zeros(2, 3, 5)),
    errors: [RangeError],
    mentions: [word('rope'), /even/, /d = 5/, shapeText([2, 3, 5])],
  },
  {
    name: 'rope with a fractional offset',
    call: (a) => a.rope(zeros(3, 4), { offset: 0.5 }),
    errors: [RangeError],
    mentions: [word('offset'), /0\.5/],
  },
  {
    name: 'ropeBackward with a base that is not positive',
    call: (a) => a.ropeBackward(zeros(3, 4), { base: 0 }),
    errors: [RangeError],
    mentions: [word('base'), /> 0/],
  },
  {
    name: 'a layer with rope on an odd head width',
    call: (a) => a.selfAttention({ dIn: 4, dQ: 3, dOut: 2, rope: true }),
    errors: [RangeError],
    mentions: [word('rope'), /even/, /dQ = 3/],
  },
  {
    name: 'a layer with ALiBi slopes for the wrong number of heads',
    call: (a) => a.multiHeadAttention({ dModel: 8, heads: 4, alibi: [1, 2] }),
    errors: [RangeError],
    mentions: [word('alibi'), /H = 4/, /got 2\b/],
  },
  {
    name: 'rope on a rank-1 input',
    call: (a) => a.rope(zeros(4)),
    errors: [RangeError],
    mentions: [word('x'), /rank 2/, shapeText([4])],
  },
];

// seed 004: the reference computation that must still work after every failure.
const [x004, k004, v004, out004] = [SEED_004.x, SEED_004_QUOTED.k, SEED_004_QUOTED.v, SEED_004_QUOTED.output].map(tensor);
function expectStillWorks(attn) {
  // docs/semantics.md quotes 3 decimals: half a unit of the last digit.
  expectClose(attn.scaledDotProductAttention(x004, k004, v004).output, out004, { rtol: 0, atol: 5.01e-4, label: 'seed 004 after an error' });
}

describe.each(BACKENDS)('bad input ($backend)', (build) => {
  let attn;
  let module; // the cached module instance attn uses, to compare wasm memory before and after
  beforeAll(async () => {
    attn = await loadBackend(build);
    ({ module } = await loadModule({ simd: build.simd }));
  });

  it.each(BAD_INPUTS.map((c) => [c.name, c]))('%s: a clear error, then the module still works', (name, c) => {
    let error;
    try {
      c.call(attn);
    } catch (e) {
      error = e;
    }
    expect(error, `${name}: no error was thrown`).toBeDefined();
    expect(
      c.errors.some((E) => error instanceof E),
      `${name}: threw ${error?.constructor?.name ?? typeof error} (${String(error)}), expected ${c.errors.map((E) => E.name).join(' or ')}`,
    ).toBe(true);
    for (const pattern of c.mentions) expect(error.message, `${name}: the message must match ${pattern}`).toMatch(pattern);
    expectStillWorks(attn);
  });

  it('200 failing calls with large valid inputs leak nothing: wasm memory as before, a large valid call works afterwards', () => {
    // Each failing call passes a valid 1 MiB q and 1 MiB v, then a k of the wrong width. Had the
    // failure path kept its copies, wasm memory would differ after the loop (compared exactly), and
    // in Node resident memory would grow by ~400 MiB (the bound below is 256).
    const T = 512;
    const bigQ = zeros(T, T);
    const badK = zeros(T, T - 1);
    const bigV = zeros(T, T);
    const rssBefore = typeof process !== 'undefined' && process.memoryUsage ? process.memoryUsage().rss : null;
    // One of each first, so that the heap has grown to what these calls need before it is compared.
    expect(() => attn.scaledDotProductAttention(bigQ, badK, bigV)).toThrow(RangeError);
    expect(() => attn.scaledDotProductAttentionBackward(bigQ, badK, bigV, zeros(T, T))).toThrow(RangeError);
    const heapBefore = heapState(module);
    for (let i = 0; i < 200; i++) {
      expect(() => attn.scaledDotProductAttention(bigQ, badK, bigV)).toThrow(RangeError);
      if (i % 50 === 0) expect(() => attn.scaledDotProductAttentionBackward(bigQ, badK, bigV, zeros(T, T))).toThrow(RangeError);
    }
    expect(heapState(module)).toEqual(heapBefore);
    const good = attn.scaledDotProductAttention(bigQ, zeros(T, T), bigV);
    expect(good.output.shape).toEqual([T, T]);
    expect(good.output.data.every((x) => x === 0)).toBe(true); // zeros in, zeros out
    if (rssBefore !== null) {
      // In Node, resident memory grows by far less than the 400 MiB a leak would take (slack for GC timing).
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    }
    expectStillWorks(attn);
  });

  it('100 successful calls with a 4 MiB key tensor leak nothing: wasm memory as before', () => {
    // One query against 16384 keys of width 64: 4 MiB of k per call but little arithmetic. Had a call
    // kept its copy of k, wasm memory would differ after the loop (compared exactly), and in Node
    // resident memory would grow by ~400 MiB (the bound below is 256).
    const Tk = 16384;
    const rand = new Float32Array(Tk * 64).map((_, i) => ((i * 2654435761) % 1000) / 1000 - 0.5);
    const bigK = { data: rand, shape: [Tk, 64] };
    const oneHot = { data: new Float32Array(Tk).map((_, j) => (j === 7 ? 1 : 0)), shape: [Tk, 1] };
    const query = { data: new Float32Array(64), shape: [1, 64] }; // zero query: uniform weights
    const rssBefore = typeof process !== 'undefined' && process.memoryUsage ? process.memoryUsage().rss : null;
    let last = attn.scaledDotProductAttention(query, bigK, oneHot).output; // the arena at its size
    const heapBefore = heapState(module);
    for (let i = 0; i < 100; i++) last = attn.scaledDotProductAttention(query, bigK, oneHot).output;
    expect(heapState(module)).toEqual(heapBefore);
    // Uniform weights over Tk keys average the one-hot values: 1 / Tk (float32 sum of 16384 terms).
    expect(last.data[0]).toBeCloseTo(1 / Tk, 9);
    if (rssBefore !== null) expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    expectStillWorks(attn);
  });

  it('a thrown error is a real Error object, never a bare number (a C++ throw through wasm)', () => {
    for (const c of BAD_INPUTS) {
      try {
        c.call(attn);
      } catch (e) {
        expect(typeof e).toBe('object');
        expect(e).toBeInstanceOf(Error);
      }
    }
  });
});
