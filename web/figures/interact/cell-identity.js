// The identity of a figure cell as the state's edit functions name it, read from the DOM:
// the figure root's data-stage/head/run/scoring/param and the cell's data-batch/row/col.

const int = (x) => (x === undefined ? undefined : Number(x));

/** { stage, head, run, scoring, param, batch, row, col, value } of a cell element, or null. */
export function cellIdentity(cellNode) {
  const figure = cellNode?.closest?.('svg[data-stage]');
  if (!figure || cellNode.dataset.col === undefined) return null;
  const f = figure.dataset;
  const c = cellNode.dataset;
  return {
    stage: f.stage,
    head: int(f.head) ?? 0,
    run: int(f.run) ?? 0,
    scoring: f.scoring,
    param: f.param,
    batch: int(c.batch) ?? 0,
    row: int(c.row),
    col: int(c.col),
    value: Number(c.value),
  };
}
