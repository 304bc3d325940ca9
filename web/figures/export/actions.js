// What a figure's menu offers. An action is { id, label, run(target) } where target is
//   { svg (the figure root), tensor, rowLabels, colLabels, title, name (file name parts) }.
// SVG, PNG and CSV are built in; another feature adds its own with registerFigureAction(), e.g.
// issue 5's "Copy embed code": registerFigureAction({ id: 'embed', label: 'Copy embed code', run }).
import { download, fileName } from './download.js';
import { svgToPng } from './raster.js';
import { standaloneSvg } from './standalone-svg.js';
import { matrixCsv } from './tables.js';

const actions = [];

export function registerFigureAction(action) {
  if (actions.some((a) => a.id === action.id)) throw new Error(`registerFigureAction: '${action.id}' is registered already`);
  actions.push(action);
}

export const figureActions = () => actions.slice();

registerFigureAction({
  id: 'svg',
  label: 'SVG',
  run: (target) => {
    const { text } = standaloneSvg(target.svg, { title: target.title });
    download(new Blob([text], { type: 'image/svg+xml' }), fileName(target.name, 'svg'));
  },
});

registerFigureAction({
  id: 'png',
  label: 'PNG',
  run: async (target) => {
    const { text, width, height } = standaloneSvg(target.svg, { title: target.title });
    download(await svgToPng(text, width, height), fileName(target.name, 'png'));
  },
});

registerFigureAction({
  id: 'csv',
  label: 'CSV',
  run: (target) => download(new Blob([matrixCsv(target.tensor, target)], { type: 'text/csv' }), fileName(target.name, 'csv')),
});
