// Helpers the stage definitions share: which tensors a card shows and how they are labelled.
import { sizesOf } from '../state/model.js';
import { scoringName } from './registry.js';

const many = (list) => list.length > 1;

/** Token labels of the query rows and key rows. */
export function tokenLabels(state) {
  return { queries: state.tokens, keys: state.keyTokens ?? state.tokens };
}

/** One instance per run (scoring) of the shown head: tensor picked by pick(run). */
export function runInstances(ctx, pick, extra = {}) {
  const { result, head, state } = ctx;
  const { queries, keys } = tokenLabels(state);
  const runs = result.heads[head].runs;
  return runs.map((run, r) => ({
    tensor: pick(run),
    label: many(runs) ? scoringName(run.scoring) : null,
    rowLabels: queries,
    colLabels: keys,
    attrs: { 'data-head': head, 'data-run': r, 'data-scoring': run.scoring },
    ...extra,
  }));
}

/** The shown head's tensor `name` (q, k, v, wq, ...) as a single instance; projected: q, k before RoPE. */
export function headInstance(ctx, name, rowLabels = null, { projected = false } = {}) {
  const { result, head } = ctx;
  const tensors = result.heads[head];
  const tensor = (projected && tensors.projected?.[name]) || tensors[name];
  return [{ tensor, rowLabels, attrs: { 'data-head': head, 'data-run': 0 } }];
}

/** Per-element masked flags (B, Tq, Tk) from the visibility the core decided. */
export const maskedFlags = (result) => Uint8Array.from(result.visible, (v) => 1 - v);

/** "3 × 2"-style size text of a tensor's last two axes. */
export function sizeText(tensor) {
  const s = tensor.shape;
  return s.slice(-2).join(' × ');
}

export const isSelf = (ctx) => ctx.state.source === 'self';
export const sizes = (ctx) => sizesOf(ctx.state);

/** Whether the layer's output is more than the shown head's O: several heads, or W^O ('self' states). */
export const hasLayerOutput = (ctx) => Boolean(ctx.result.projected && (ctx.state.wo || ctx.state.heads > 1));
