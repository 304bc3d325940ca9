// Highlighting where a number came from: the cells a source list names get .is-source, the
// explained cell gets .is-current.

const attr = (name, value) => (value === undefined || value === null ? '' : `[${name}="${value}"]`);

/** CSS selector of the cells a source names (a whole row or column when the other is absent). */
export function sourceSelector({ stage, head, run, param, batch, row, col }) {
  return `svg[data-stage="${stage}"]${attr('data-head', head)}${attr('data-run', run)}${attr('data-param', param)} .cell${attr('data-batch', batch)}${attr('data-row', row)}${attr('data-col', col)}`;
}

export function clearHighlights(root) {
  for (const node of root.querySelectorAll('.is-source, .is-current')) node.classList.remove('is-source', 'is-current');
}

export function highlight(root, cellNode, sources) {
  clearHighlights(root);
  cellNode?.classList.add('is-current');
  for (const source of sources) {
    for (const node of root.querySelectorAll(sourceSelector(source))) node.classList.add('is-source');
  }
}
