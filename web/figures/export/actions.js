// What a figure's menu offers. An action is { id, label, run(target) } where target is
//   { svg (the figure root), tensor, rowLabels, colLabels, title, name (file name parts) }.
// SVG, PNG and CSV are built in; another feature adds its own with registerFigureAction(), e.g.
// issue 5's "Copy embed code": registerFigureAction({ id: 'embed', label: 'Copy embed code', run }).
import { download, fileName, saveSvg } from './download.js';
import { standaloneSvg } from './standalone-svg.js';
import { matrixCsv } from './tables.js';

const actions = [];

export function registerFigureAction(action) {
  if (actions.some((a) => a.id === action.id)) throw new Error(`registerFigureAction: '${action.id}' is registered already`);
  actions.push(action);
}

export const figureActions = () => actions.slice();

for (const kind of ['svg', 'png']) {
  registerFigureAction({
    id: kind,
    label: kind.toUpperCase(),
    run: (target) => saveSvg(standaloneSvg(target.svg, { title: target.title }), kind, target.name),
  });
}

registerFigureAction({
  id: 'csv',
  label: 'CSV',
  run: (target) => download(new Blob([matrixCsv(target.tensor, target)], { type: 'text/csv' }), fileName(target.name, 'csv')),
});
