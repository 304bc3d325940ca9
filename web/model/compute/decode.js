// Decoding with a KV cache (issue 12's Generate stepper): the tokens of a 'self' state fed one at a
// time through an API layer's cache, layer.forward(x_t, { cache }), as a decoder generates text.
//   layer   multiHeadAttention when one computes the state (every head, grouped K and V, W^O),
//           otherwise selfAttention with the shown head's weights (layers.js); the state's window,
//           ALiBi and RoPE either way. The cached forward always aligns causally bottom-right.
// The cache keeps its rows to itself, so each step also works them out beside it, as the layer
// does (x_t W, rotated at position t by rope(.., { offset: t })): every head's q_t, its kv head's
// K and V rows so far, and the new row of weights attention(q_t, K, V) gives. Three checks:
//   output  the cached forward's row t against the full forward's row t (compute()'s, the numbers
//           on the page: a causal forward over the whole sequence gives the same rows)
//   weights the new row of weights against the full forward's row t
//   rows    the cached forward's row t against the rows worked out beside it (so the K and V shown
//           are what the cache holds)
import { multiHeadOptions, selfLayerOptions } from './layers.js';
import { largestDifference, product } from './linear.js';
import { ropeOptions } from './positions.js';
import { scoringOptions } from './run.js';
import { fromNested, sideBySide } from './tensors.js';
import { groupLeader } from '../state/model.js';
import { t } from '../../i18n/index.js';

/** Why a state cannot be decoded with a layer's cache (in `lang`, default en), or null when it can. */
export function decodeBlocker(state, lang = 'en') {
  if (state.source !== 'self') return t(lang, 'generate.blocker-qkv');
  if (state.validLens) return t(lang, 'generate.blocker-lens');
  if (!selfLayerOptions(state, state.head, state.scoring)) return t(lang, 'generate.blocker-scoring');
  return null;
}

/** Row t of a (1, T, C) tensor as (1, 1, C); rows 0 .. t as (1, t + 1, C). */
const row = (x, t) => ({ data: x.data.slice(t * x.shape.at(-1), (t + 1) * x.shape.at(-1)), shape: [1, 1, x.shape.at(-1)] });

/**
 * A decoder over `state` (decodeBlocker(state) null) and its full forward `result` (compute()).
 * -> { kind, T, length, step() -> the step's record, reset(), dispose() }
 * A step's record: { t, token, cacheLength, capacity, output (1, 1, d_out), full: its row t,
 *   weights (1, 1, t + 1) of the shown head, fullWeights: its row t (first t + 1 entries),
 *   k, v (1, t + 1, d): the shown head's kv head's rows held, diffs: { output, weights, rows } }.
 */
export function createDecoder(attn, state, result) {
  const scoring = state.scoring;
  const multi = multiHeadOptions(state, scoring);
  const kind = multi ? 'multiHeadAttention' : 'selfAttention';
  const layer = attn[kind](multi ?? selfLayerOptions(state, state.head, scoring));
  const heads = multi ? result.heads.map((_, h) => h) : [state.head];
  const x = result.x;
  const T = x.shape[1];
  const rope = ropeOptions(state);
  const fullOutput = multi ? result.projected[0].output : result.heads[state.head].runs[0].output;
  let cache = layer.createCache({ maxLength: T });
  let kv = {}; // kv head -> { k: rows (1, t, d), v } worked out beside the cache

  /** q_t, k_t, v_t of head h at position t: the core's projections, rotated from position t. */
  function newRows(h, t) {
    const head = result.heads[h];
    const turn = (m) => (rope ? attn.rope(row(m, t), { ...rope, offset: t }) : row(m, t));
    return { q: turn(head.projected?.q ?? head.q), k: turn(head.projected?.k ?? head.k), v: row(head.v, t) };
  }

  const append = (held, next) => (held ? { data: Float32Array.of(...held.data, ...next.data), shape: [1, held.shape[1] + 1, next.shape[2]] } : next);

  function step() {
    const t = cache.length;
    if (t >= T) throw new RangeError(`decode: all ${T} tokens are in the cache (reset to start again)`);
    // pass 1: the layer's own cached forward of token t.
    const output = layer.forward(row(x, t), { cache }).output;
    // pass 2: beside it, every head's new row against its kv head's rows so far.
    const perHead = heads.map((h) => {
      const rows = newRows(h, t);
      const g = groupLeader(h, state.heads, state.kvHeads);
      // The first head of a group appends its kv head's rows (the others share them).
      if ((kv[g]?.k.shape[1] ?? 0) === t) kv[g] = { k: append(kv[g]?.k, rows.k), v: append(kv[g]?.v, rows.v) };
      const head = result.heads[h];
      const { options } = scoringOptions(state, scoring, head.q.shape.at(-1));
      const masks = {
        causal: 'bottom-right',
        ...(head.masks.window ? { window: head.masks.window } : {}),
        ...(head.masks.alibi ? { alibi: head.masks.alibi } : {}),
      };
      const attended = attn.attention(rows.q, kv[g].k, kv[g].v, { ...options, ...masks, returnWeights: true });
      return { h, g, ...attended };
    });
    const beside = multi ? product(sideBySide(perHead.map((p) => p.output)), fromNested(state.wo)) : perHead[0].output;
    // pass 3: the checks against the full forward's row t.
    const shown = perHead.find((p) => p.h === state.head);
    const full = row(fullOutput, t);
    const fullWeights = { data: row(result.heads[state.head].runs[0].weights, t).data.slice(0, t + 1), shape: [1, 1, t + 1] };
    return {
      t,
      token: state.tokens[t],
      cacheLength: cache.length,
      capacity: cache.capacity,
      output,
      full,
      weights: shown.weights,
      fullWeights,
      k: kv[shown.g].k,
      v: kv[shown.g].v,
      kvHead: shown.g / (state.heads / state.kvHeads),
      diffs: {
        output: largestDifference(output, full).diff,
        weights: largestDifference(shown.weights, fullWeights).diff,
        rows: largestDifference(output, beside).diff,
      },
    };
  }

  return {
    kind,
    T,
    get length() {
      return cache.length;
    },
    step,
    reset() {
      cache.dispose(); // its rows back now, not when the collector gets to it
      cache = layer.createCache({ maxLength: T });
      kv = {};
    },
    dispose: () => layer.dispose(), // and its cache with it
  };
}
