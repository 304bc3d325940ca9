// Numbers as data files: one matrix as CSV, every stage of the page as JSON. Values are the
// exact float32 values (String(x) round-trips them); -Infinity (a masked score) is written as
// "-Infinity" in both, since JSON has no infinities.
import { matrixSize, stackCount } from '../../model/compute/tensors.js';
import { allStages } from '../../model/stages/registry.js';

const numberText = (x) => (Number.isFinite(x) ? String(x) : x > 0 ? 'Infinity' : x < 0 ? '-Infinity' : 'NaN');
const csvField = (text) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** CSV of a (B, R, C) tensor: a header row (batch?, row, then the column labels), one line per row; batches, rows and columns without labels counted from 0. */
export function matrixCsv(tensor, { rowLabels = null, colLabels = null } = {}) {
  const [R, C] = matrixSize(tensor);
  const B = stackCount(tensor);
  const header = [...(B > 1 ? ['batch'] : []), 'row', ...Array.from({ length: C }, (_, j) => colLabels?.[j] ?? `col ${j}`)];
  const lines = [header.map(csvField).join(',')];
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < R; i++) {
      const values = Array.from({ length: C }, (_, j) => numberText(tensor.data[(b * R + i) * C + j]));
      lines.push([...(B > 1 ? [String(b)] : []), csvField(rowLabels?.[i] ?? String(i)), ...values].join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

const jsonNumber = (x) => (Number.isFinite(x) ? x : numberText(x));

/** Every stage the page shows for ctx (the shown head), with the state that produced them. */
export function stagesJson(ctx) {
  const stages = {};
  for (const stage of allStages()) {
    if (stage.available && !stage.available(ctx)) continue;
    stages[stage.id] = stage.instances(ctx).map((inst) => ({
      ...(inst.label ? { label: inst.label } : {}),
      ...Object.fromEntries(Object.entries(inst.attrs ?? {}).map(([k, v]) => [k.replace(/^data-/, ''), v])),
      shape: inst.tensor.shape,
      rowLabels: inst.rowLabels ?? undefined,
      colLabels: inst.colLabels ?? undefined,
      data: Array.from(inst.tensor.data, jsonNumber),
    }));
  }
  return `${JSON.stringify({ generator: 'attention-lab explorer', head: ctx.head, state: ctx.state, stages }, null, 1)}\n`;
}
