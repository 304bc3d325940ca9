// A consumer of 'attention-lab/figures' (web/figures/index.d.ts): every function with every option
// (each options literal `satisfies Required<...>`), its result used as the DOM type declared.
import {
  CELL_BUDGET,
  NAN_GREY,
  PALETTE,
  canvasHeatmap,
  colorBarLayout,
  colorScale,
  formatNumber,
  fullValue,
  heads,
  headsLayout,
  heatmap,
  heatmapLayout,
  heatmapOrCanvas,
  legend,
  lineChart,
  links,
  loadLanguage,
  matrix,
  pipeline,
  pipelineData,
  pipelineState,
  stageIds,
  standaloneHtml,
  toneMix,
  widestText,
  type AttentionsLike,
  type CanvasHeatmapOptions,
  type ColorBar,
  type ColorScale,
  type HeadsLayout,
  type HeadsMap,
  type HeadsOptions,
  type HeatmapLayout,
  type HeatmapOptions,
  type LayoutText,
  type LineChartOptions,
  type LinksOptions,
  type ColorScaleKind,
  type FigureLanguage,
  type TensorLike,
  type MatrixOptions,
  type PaletteColor,
  type PipelineSpec,
  type PipelineStateSpec,
  type PresetId,
  type StandaloneOptions,
  type StandaloneSpec,
  type Tensor,
  type View,
} from 'attention-lab/figures';
import { loadAttention } from 'attention-lab';

const weights: TensorLike = [
  [0.25, 0.75],
  [1, 0],
];
const tensor: Tensor = { data: new Float32Array([1, -1]), shape: [1, 2] };
const masked = new Uint8Array([0, 1, 0, 0]);
const attrs = { 'data-head': 0, 'data-run': 'dot' };
// The options every figure takes.
const common = { stage: 'weights', attrs };

// zh-CN's words load on demand, before a figure draws in zh-CN.
const loaded: Promise<void> = loadLanguage('zh-CN');
void loaded.then(() => heatmap(weights, { lang: 'zh-CN' }));

const matrixOptions = {
  stage: 'weights',
  title: 'The attention weights',
  colorScale: 'weights',
  rowLabels: ['a', 'b'],
  colLabels: null,
  batchLabel: (b: number) => `sentence ${b + 1}`,
  masked,
  cellLabel: (b: number, i: number, j: number, value: number) => `${b} ${i} ${j}: ${fullValue(value)}`,
  attrs,
  editable: true,
  legend: false,
  lang: 'zh-CN',
} satisfies Required<MatrixOptions>;

const heatmapOptions = {
  ...common,
  title: '',
  rowLabels: ['the', 'cat'],
  colLabels: ['the', 'cat'],
  xlabel: 'Keys',
  ylabel: 'Queries',
  colorScale: 'signed',
  batchLabel: (b: number) => `b${b + 1}`,
  masked: [0, 1, 0, 0],
  numbers: true,
  cellSize: 24,
  lang: 'zh-CN',
} satisfies Required<HeatmapOptions>;

const linksOptions = {
  ...common,
  title: 'Links',
  rowLabels: ['the', 'cat'],
  colLabels: ['the', 'cat'],
  masked: null,
  lang: 'en',
} satisfies Required<LinksOptions>;

const chartOptions = {
  ...common,
  stage: 'loss',
  title: 'Loss',
  xlabel: 'step',
  width: 320,
  height: 120,
  lang: 'zh-CN',
} satisfies Required<LineChartOptions>;

// Every layout of attentions the model view reads: (L, H, T, Tk), (H, T, Tk), BertViz's list.
const attentions: AttentionsLike[] = [
  [
    [
      [
        [1, 0],
        [0.5, 0.5],
      ],
    ],
  ],
  [
    [
      [1, 0],
      [0.5, 0.5],
    ],
  ],
  [
    [
      [
        [
          [1, 0],
          [0.5, 0.5],
        ],
      ],
    ],
  ],
  [
    { data: new Float32Array([1, 0, 0.5, 0.5]), shape: [1, 1, 2, 2] },
    { data: [1, 0, 0, 1], shape: [1, 1, 2, 2] as const },
  ],
  { data: new Float32Array(4), shape: [1, 2, 2] },
];
const headsOptions = {
  title: '',
  rowLabels: ['the', 'cat'],
  colLabels: null,
  layers: [0],
  heads: [0],
  aggregates: false,
  thumbSize: 48,
  colorScale: 'weights',
  lang: 'zh-CN',
} satisfies Required<HeadsOptions>;
const canvasOptions = {
  title: 'Layer 1, head 1',
  rowLabels: ['the', 'cat'],
  colLabels: null,
  cellSize: 2,
  highlight: new Set([1]),
  colorScale: 'signed',
  masked: [0, 1, 0, 0],
  note: 'Drawn on a canvas',
  lang: 'en',
} satisfies Required<CanvasHeatmapOptions>;

const presets: PresetId[] = ['seed-004', 'seed-002', 'd2l', 'sentence', 'random'];
const views: View[] = ['matrix', 'heatmap', 'links'];
const stateSpec = {
  preset: presets[2],
  data: {
    x: [
      [1, 2],
      [0, 1],
    ],
  },
  scoring: 'additive',
  compare: ['dot', 'general'],
  causal: 'none',
  validLens: [[1, 2]],
  maskFill: -1e6,
  heads: 2,
  kvHeads: 1,
  window: [1, 0],
  alibi: [0.5, 0.25],
  rope: { base: 100, interleaved: true },
  head: 1,
  view: views[1],
} satisfies Required<PipelineStateSpec>;

export async function useFigures(): Promise<number> {
  const nodes: SVGSVGElement[] = [
    matrix(weights, matrixOptions),
    matrix(tensor),
    heatmap(weights, heatmapOptions),
    heatmap({ data: [1, 0], shape: [1, 2] }),
    links(weights, linksOptions),
    lineChart([3, 2, 1], chartOptions),
    lineChart([1]),
  ];
  const divs: HTMLDivElement[] = [
    ...attentions.map((a) => heads(a)),
    heads(attentions[0], headsOptions),
    heads(attentions[3], { rowLabels: null }),
    canvasHeatmap(weights, canvasOptions),
    canvasHeatmap(tensor, { highlight: null }),
  ];
  const either: SVGSVGElement | HTMLDivElement = heatmapOrCanvas(weights, { ...heatmapOptions, lang: 'zh-CN' });
  const budget: number = CELL_BUDGET;
  const scale: ColorScale = colorScale('signed', tensor.data, (index) => index > 0);
  const tone: 'seq' | 'pos' | 'neg' = scale.tone(-1);
  const intensity: number = scale.t(0.5) + scale.min + scale.max;
  const kind: ColorScaleKind = colorScale('weights', [0.5]).kind;
  const chinese: FigureLanguage = 'zh-CN';
  const key = legend(scale, { x: 4, y: 8, hatchId: null, lang: chinese });
  const keyNode: SVGGElement = key.node;
  legend(scale);
  // The layout heatmap() draws, as numbers and texts (what the command line writes as a file).
  const layout: HeatmapLayout = heatmapLayout(weights, { rowLabels: ['a', 'b'], colorScale: 'weights', masked, lang: 'en' });
  const firstText: LayoutText = layout.texts[0];
  const where: number = layout.cellX(1) + layout.cellY(0) + layout.cell.rx + layout.bar.stops[0][0] + layout.scale.t(0.5) + layout.tone(NaN).length;
  const bar = colorBarLayout(layout.scale, 0, 0, 60);
  const drawnBar: ColorBar = bar.bar;
  const placed: number = where + bar.width + drawnBar.height + bar.texts.length + layout.width + firstText.attrs.x;
  // The grid heads() draws, as numbers and texts (what the command line writes as a file).
  const grid: HeadsLayout = headsLayout(attentions[0], headsOptions);
  const map: HeadsMap = grid.maps[0];
  const mapLayer: number | 'mean' = map.layer;
  const gridPlaced: number = map.x + map.y + map.offset + grid.thumb.width + grid.bar.height + grid.scale.t(0.5) + grid.texts.length + grid.height;

  const spec = {
    ...stateSpec,
    attn: await loadAttention(),
    stages: (await stageIds()).filter((id) => id !== 'params'),
    backward: true,
    editable: true,
    captions: true,
    lang: 'zh-CN',
  } satisfies Required<PipelineSpec>;
  const figure: HTMLDivElement = await pipeline(spec);
  const state: Record<string, unknown> = await pipelineState(stateSpec);
  await pipelineState();
  // @ts-expect-error async: a Promise of the figure, not a node to append
  figure.append(pipeline(spec));
  // @ts-expect-error async: a Promise of the ids, not the list
  stageIds().filter((id) => id !== 'params');
  const text: string = formatNumber(0.0557) + fullValue(-Infinity);
  const tones: PaletteColor[] = ['weight', 'pos', 'neg', 'cell'];
  const [light, dark]: readonly [string, string] = PALETTE[tones[0]];
  const [red, green, blue]: [number, number, number] = toneMix([67, 56, 202], [255, 255, 255], scale.t(0.5));
  const labelRoom: number = red + green + blue + widestText(['the', 'cat', 7], 11) + NAN_GREY.length + light.length + dark.length;
  const fileData: Record<string, unknown> | null = await pipelineData(
    { tensors: { q: { data: new Float32Array(4), shape: [2, 2], dtype: 'float32' } }, tokens: ['a', 'b'] },
    { wq: true },
  );
  await pipelineData({ tensors: {} });

  const standalone = {
    element: 'attn-heatmap',
    attributes: { label: 'Head 1', numbers: true, xlabel: null },
    data: {
      weights: [
        [0.9, 0.1],
        [0.3, 0.7],
      ],
    },
    title: 'A heatmap',
  } satisfies Required<StandaloneSpec>;
  const options = { read: async (path: string) => path } satisfies Required<StandaloneOptions>;
  const file: string = await standaloneHtml(standalone, options);
  await standaloneHtml({ element: 'attn-figure' });

  return (
    file.length +
    nodes.length +
    divs.length +
    either.childElementCount +
    budget +
    tone.length +
    intensity +
    kind.length +
    key.width +
    key.height +
    keyNode.childElementCount +
    figure.childElementCount +
    Object.keys(state).length +
    text.length +
    labelRoom +
    placed +
    gridPlaced +
    (mapLayer === 'mean' ? 0 : mapLayer) +
    Object.keys(fileData ?? {}).length
  );
}

export function misuse(): void {
  // @ts-expect-error toneMix mixes sRGB bytes, not CSS colours
  toneMix('#4338ca', '#ffffff', 0.5);
  // @ts-expect-error the palette is frozen
  PALETTE.cell = ['#000000', '#ffffff'];
  // @ts-expect-error no such colour
  void PALETTE.accent;
  // @ts-expect-error colorScale is 'signed' or 'weights'
  matrix(weights, { colorScale: 'diverging' });
  // @ts-expect-error 0.1's kind is now colorScale
  matrix(weights, { kind: 'weights' });
  // @ts-expect-error a pipeline computes through the module from loadAttention()
  void pipeline({ preset: 'd2l' });
  // @ts-expect-error no such preset
  void pipelineState({ preset: 'seed-005' });
  // @ts-expect-error alibi is a boolean or a list of slopes, not a string
  void pipelineState({ alibi: '0.5 0.25' });
  // @ts-expect-error thumbSize is a number of CSS px
  heads(attentions[0], { thumbSize: '64px' });
  // @ts-expect-error the maps share one scale by kind, not a scale object
  headsLayout(attentions[0], { colorScale: colorScale('weights', [0.5]) });
  // @ts-expect-error highlight is a Set of token indices, not a list
  canvasHeatmap(weights, { highlight: [1] });
  // @ts-expect-error lang is 'en' or 'zh-CN' (anything else is a RangeError at run time too)
  heatmap(weights, { lang: 'fr' });
  // @ts-expect-error loadLanguage takes the same two languages
  void loadLanguage('fr');
  // @ts-expect-error a layout draws nothing: no attrs of a root
  heatmapLayout(weights, { attrs: { id: 'x' } });
  // @ts-expect-error lang is 'en' or 'zh-CN', written so
  heads(attentions[0], { lang: 'zh' });
  // @ts-expect-error the elements are attn-figure, attn-heatmap and attn-heads
  void standaloneHtml({ element: 'attn-matrix' });
}
