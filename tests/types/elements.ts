// A consumer of 'attention-lab/elements' (web/elements/index.d.ts): the four classes, their members,
// every attribute each re-renders on (each set `satisfies Record<...Attribute, string>`, so an
// attribute the declarations gain must be set here too), the tag-name map and the 'attn-render'
// event the declarations add to the DOM's types.
import {
  AttnFigure,
  AttnHeads,
  AttnHeatmap,
  AttnTraining,
  type AttnFigureAttribute,
  type AttnHeadsAttribute,
  type AttnHeatmapAttribute,
  type AttnTrainingAttribute,
  type AttnTrainingState,
} from 'attention-lab/elements';
import { expectType, type Equal } from './assert.js';

const figureAttributes = {
  preset: 'd2l',
  data: '{"x": [[1, 2], [0, 1]]}',
  stages: 'scores weights output',
  scoring: 'additive',
  compare: 'dot general',
  causal: 'bottom-right',
  'valid-lens': '2 6',
  'mask-fill': '-1e6',
  window: '2 0',
  alibi: '',
  rope: 'interleaved',
  heads: '2',
  'kv-heads': '1',
  head: '1',
  view: 'heatmap',
  backward: '',
  editable: '',
  captions: '',
  src: 'layer.safetensors',
  transpose: 'wq wk wv',
  lang: 'zh-CN',
} satisfies Record<AttnFigureAttribute, string>;

const fileAttributes = { src: 'attn.npz', tensor: 'attentions', index: '0 3' };
const heatmapAttributes = {
  ...fileAttributes,
  weights: '[[0.9, 0.1], [0.3, 0.7]]',
  'row-labels': 'the cat',
  'col-labels': '["the", "cat"]',
  title: 'Head 1',
  xlabel: 'Keys',
  ylabel: 'Queries',
  'color-scale': 'signed',
  numbers: '',
  masked: '[[0, 1], [0, 0]]',
  lang: 'en',
} satisfies Record<AttnHeatmapAttribute, string>;
const headsAttributes = {
  ...fileAttributes,
  index: '0',
  'row-labels': 'the cat sat',
  'col-labels': 'the cat sat',
  layers: '0 1',
  heads: '0 2 5',
  aggregates: 'false',
  'thumb-size': '48',
  title: 'BERT',
  lang: 'zh-CN',
} satisfies Record<AttnHeadsAttribute, string>;

const trainingAttributes = {
  task: 'induction',
  layers: '2',
  heads: '4',
  'd-model': '32',
  mlp: '0',
  batch: '32',
  'learning-rate': '3e-3',
  'max-steps': '1500',
  lang: 'zh-CN',
} satisfies Record<AttnTrainingAttribute, string>;

/** Sets every attribute of `values` on `element`. */
function setAll(element: HTMLElement, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) element.setAttribute(name, value);
}

export async function useElements(): Promise<number> {
  const figure = document.createElement('attn-figure');
  expectType<Equal<typeof figure, AttnFigure>>(true);
  const map = document.querySelector('attn-heatmap');
  expectType<Equal<typeof map, AttnHeatmap | null>>(true);
  const grid = document.createElement('attn-heads');
  expectType<Equal<typeof grid, AttnHeads>>(true);
  expectType<Equal<typeof AttnHeads.observedAttributes, AttnHeadsAttribute[]>>(true);
  const training = document.createElement('attn-training');
  expectType<Equal<typeof training, AttnTraining>>(true);
  expectType<Equal<typeof AttnTraining.observedAttributes, AttnTrainingAttribute[]>>(true);
  setAll(training, trainingAttributes);
  const started: Promise<void> = training.train();
  await training.pause();
  await started;
  training.showSnapshot(2);
  const trained: AttnTrainingState | null = training.state;
  const lastLoss: number | undefined = trained?.losses.at(-1);
  const induction: number | undefined = trained?.probe?.scores.induction[1]?.[0];
  const running: boolean = training.running;
  const attributes: string[] = [
    ...AttnFigure.observedAttributes,
    ...AttnHeatmap.observedAttributes,
    ...AttnHeads.observedAttributes,
    ...AttnTraining.observedAttributes,
  ];
  setAll(figure, figureAttributes);
  if (map) setAll(map, heatmapAttributes);
  setAll(grid, headsAttributes);
  const state: Record<string, unknown> | null = figure.state;
  let renders = 0;
  figure.addEventListener('attn-render', (event) => {
    const detail: { renders?: number; edited?: boolean } = event.detail;
    renders = (detail.renders ?? 0) + Number(detail.edited ?? false);
  });
  grid.addEventListener('attn-render', (event) => {
    renders += event.detail.renders ?? 0;
  });
  const done: Promise<void> = figure.exportAs('svg');
  await done;
  await map?.exportAs('png');
  const element: HTMLElement = new AttnHeatmap();
  const heads: HTMLElement = new AttnHeads();
  return (
    attributes.length + (state ? 1 : 0) + renders + element.childElementCount + heads.childElementCount + (lastLoss ?? 0) + (induction ?? 0) + Number(running)
  );
}

export function misuse(figure: AttnFigure, grid: AttnHeads, training: AttnTraining): void {
  // @ts-expect-error <attn-training> takes learning-rate, not learningRate
  AttnTraining.observedAttributes.includes('learningRate');
  // @ts-expect-error its state is read-only
  training.state = null;
  // @ts-expect-error a snapshot is chosen by its index
  training.showSnapshot('step 400');
  // @ts-expect-error a figure exports as SVG or PNG
  void figure.exportAs('jpeg');
  // @ts-expect-error the state is read-only
  figure.state = {};
  // @ts-expect-error the model view has no explorer state
  void grid.state;
  // @ts-expect-error <attn-heads> takes thumb-size, not thumbSize
  AttnHeads.observedAttributes.includes('thumbSize');
}
