// attention-lab/figures: plain functions that return DOM nodes, for pages with their own framework
// (or none). Import the styles once as well: 'attention-lab/figures.css' (or a <link> to it);
// every colour is a custom property (--attn-cell, --attn-ink, --attn-ink-muted, --attn-ink-strong,
// --attn-grid, --attn-weight, --attn-pos, --attn-neg, --attn-hatch, --attn-masked-bg, --attn-focus,
// --attn-font) a page may set.
//
// The contract every figure keeps (the explorer's, so the same tests read both):
//   root   svg[data-stage] (the stage name: 'weights', 'q', 'scores', ...), plus data-head and
//          data-run where a figure belongs to a head or a compared scoring;
//   cells  [data-row][data-col][data-value] (and data-batch), data-value = String(float32 value),
//          each a focusable role="gridcell" with an aria-label holding the exact value; arrow keys
//          move between cells, Enter/Space/click dispatch 'attn-cell-activate' (bubbling).
// Shapes use the letters of docs/semantics.md: B batch, Tq queries, Tk keys, R x C a matrix.
import type { Attention, AttentionWindow, Causal, RopeSetting, Scoring, Tensor, TensorLike } from '../src/index.js';
import type { TensorFile } from '../io/index.js';

/** The languages of the figures' own words. */
export type FigureLanguage = 'en' | 'zh-CN';

/**
 * Loads a language's words for the figure functions (titles, axis titles, cell names, readouts, the
 * model view's labels), once: English is there at import, zh-CN's (about 5 KiB gzipped) are fetched
 * by the first call, so a page in English never downloads them. The figure functions draw synchronously, so a figure in zh-CN
 * needs this awaited first: `await loadLanguage('zh-CN'); heatmap(w, { lang: 'zh-CN' })`. Before,
 * that call throws a RangeError naming lang and loadLanguage (never a figure in English).
 * pipeline() (with its stages' words) and the elements load their language themselves. Rejects with a RangeError naming lang
 * for anything but 'en' or 'zh-CN', and with an Error when the words cannot be fetched (a later call
 * tries again).
 */
export function loadLanguage(lang: FigureLanguage): Promise<void>;

export interface MatrixOptions {
  /** The language of the figure's own words (default title, axis titles, cell names, readouts): 'en' (the default) or 'zh-CN' once `await loadLanguage('zh-CN')` has finished (before, a RangeError saying so); anything else is a RangeError naming lang. */
  lang?: FigureLanguage;
  /** data-stage of the root (default 'matrix'). */
  stage?: string;
  /** Accessible name of the figure (default: the stage). */
  title?: string;
  /** 'signed' (diverging around 0, the default) or 'weights' (sequential on [0, 1]), as heatmap()'s. (0.1's `kind`: a TypeError naming this.) */
  colorScale?: ColorScaleKind;
  /** Labels of the R rows / C columns of each block. */
  rowLabels?: string[] | null;
  colLabels?: string[] | null;
  /** (b) -> the label above block b when B > 1 (default 'batch 0', 'batch 1', ...: counted from 0). */
  batchLabel?: (b: number) => string;
  /** Per-element flags, 1 = masked: drawn hatched and muted, never mistaken for 0. */
  masked?: ArrayLike<number> | null;
  /** (b, i, j, value, shown) -> the aria-label of a cell; shown is the text the cell displays (its name must contain it). */
  cellLabel?: (b: number, i: number, j: number, value: number, shown: string) => string;
  /** Extra attributes of the root, e.g. { 'data-head': 0 }. */
  attrs?: Record<string, string | number>;
  /** Marks cells editable (class 'editable', aria-readonly false); the page handles the edits. */
  editable?: boolean;
  /** Draw the colour legend under the matrix (default true). */
  legend?: boolean;
}

/** A matrix (R, C), a stack of them (B, R, C), or a vector (C) as one row, with its numbers. */
export function matrix(tensor: TensorLike, options?: MatrixOptions): SVGSVGElement;

export interface HeatmapOptions {
  /** The language of the figure's own words (default title, axis titles, cell names, readouts): 'en' (the default) or 'zh-CN' once `await loadLanguage('zh-CN')` has finished (before, a RangeError saying so); anything else is a RangeError naming lang. */
  lang?: FigureLanguage;
  /** data-stage of the root (default 'weights'). */
  stage?: string;
  /** Title above the map (default 'Attention weights'; '' for none). */
  title?: string;
  /** Labels of the Tq rows and Tk columns (default 0, 1, 2, ...: positions from 0). */
  rowLabels?: string[];
  colLabels?: string[];
  /** Axis titles (default 'Keys', 'Queries'). */
  xlabel?: string;
  ylabel?: string;
  /** 'weights' (sequential on [0, 1], the default) or 'signed' (diverging around 0: scores, gradients). */
  colorScale?: ColorScaleKind;
  /** (b) -> prefix of row labels when B > 1 (default 'b0', 'b1', ...). */
  batchLabel?: (b: number) => string;
  /** Per-element flags, 1 = masked (hatched). */
  masked?: ArrayLike<number> | null;
  /** Draw the values (2 decimals) in the cells (default false: colour only, as d2l's show_heatmaps). */
  numbers?: boolean;
  /** Cell size in px (default from the size of the map, 14..40). */
  cellSize?: number;
  attrs?: Record<string, string | number>;
}

/** Attention weights (Tq, Tk) or (B, Tq, Tk; batches stacked as rows) as a heatmap with a colour bar. */
export function heatmap(weights: TensorLike, options?: HeatmapOptions): SVGSVGElement;

/** One text of a figure's layout: what it says, its role (the colour it takes) and its <text> attributes. */
export interface LayoutText {
  role: 'title' | 'axis' | 'axis-title' | 'legend';
  text: string;
  /** x, y, and where set dy, text-anchor, transform; font-size in px. */
  attrs: { x: number; y: number; dy?: string; 'text-anchor'?: 'start' | 'middle' | 'end'; transform?: string; 'font-size': number };
}

/** A vertical colour bar: its rect, and its gradient's stops [offset in [0, 1], tone, t] from the scale's min to its max. */
export interface ColorBar {
  x: number;
  y: number;
  width: number;
  height: number;
  rx: number;
  stops: Array<[number, 'seq' | 'pos' | 'neg', number]>;
}

/** heatmap()'s drawing as numbers and texts, without a DOM (what the command line writes into its SVG files). */
export interface HeatmapLayout {
  weights: { data: ArrayLike<number>; shape: number[] };
  lang: FigureLanguage;
  /** Batches, rows per batch, columns. */
  B: number;
  R: number;
  C: number;
  /** The B*R row labels and C column labels as drawn (default positions from 0; batches prefixed 'b0 · ' when B > 1). */
  rowLabels: string[];
  colLabels: string[];
  scale: ColorScale;
  /** A value's tone: the scale's, or 'nan' for NaN (drawn grey, NAN_GREY, never mistaken for a weight). */
  tone(value: number): 'seq' | 'pos' | 'neg' | 'nan';
  /** px per cell, and the rect drawn in it. */
  size: number;
  cell: { width: number; height: number; rx: number };
  /** The top left corner of column j's and stacked row r's cell. */
  cellX(j: number): number;
  cellY(r: number): number;
  /** Every text in drawing order: title, row labels, column labels, axis titles, the colour bar's numbers. */
  texts: LayoutText[];
  bar: ColorBar;
  /** The figure's accessible name. */
  name: string;
  width: number;
  height: number;
}

/** Where heatmap() puts every cell, label and the colour bar, and its colour scale; throws as heatmap() does. */
export function heatmapLayout(weights: TensorLike, options?: Omit<HeatmapOptions, 'stage' | 'numbers' | 'attrs'>): HeatmapLayout;

/** A colour bar for `scale` at (x, y), `height` tall, with its max, middle and min: -> the bar, its texts and its width. */
export function colorBarLayout(scale: ColorScale, x: number, y: number, height: number): { bar: ColorBar; texts: LayoutText[]; width: number };

/** Attentions for the model view: (L, H, T, Tk), (H, T, Tk), or BertViz's list of per-layer (1, H, T, Tk). */
export type AttentionsLike = TensorLike | number[][][][][] | Array<{ data: ArrayLike<number>; shape: readonly number[] }>;

export interface HeadsOptions {
  /** The language of the figure's own words (default title, axis titles, cell names, readouts): 'en' (the default) or 'zh-CN' once `await loadLanguage('zh-CN')` has finished (before, a RangeError saying so); anything else is a RangeError naming lang. */
  lang?: FigureLanguage;
  /** Title above the grid (default 'Attention by layer and head'; '' for none). */
  title?: string;
  /**
   * Labels of the T queries and the Tk keys (colLabels defaults to rowLabels when Tk = T); the
   * queries' (else the keys') are drawn as buttons that highlight rows and columns. A RangeError
   * for a list of another length. (0.1's tokens: a TypeError naming these.)
   */
  rowLabels?: string[] | null;
  colLabels?: string[] | null;
  /** Indices of the layers / heads to show (default all). */
  layers?: number[];
  heads?: number[];
  /** Rows for the mean and max over heads, a column for the mean over layers (default true). */
  aggregates?: boolean;
  /** CSS px of a thumbnail's width (default 64; its height keeps the map's T:Tk); a RangeError unless a positive number. */
  thumbSize?: number;
  /** One scale for every map: 'weights' (sequential on [0, 1], the default) or 'signed' (diverging around 0, for scores). */
  colorScale?: ColorScaleKind;
}

/** One map of the model view's grid: whose weights, where they are, its name, and its top left corner. */
export interface HeadsMap {
  /** The layer (from 0) or 'mean' over layers; the head (from 0), or 'mean' / 'max' over heads. */
  layer: number | 'mean';
  head: number | 'mean' | 'max';
  /** Its T x Tk weights are data[offset .. offset + T*Tk). */
  data: Float32Array | ArrayLike<number>;
  offset: number;
  name: string;
  x: number;
  y: number;
}

/** heads()'s grid as numbers and texts, without a DOM (what the command line writes into its SVG files). */
export interface HeadsLayout {
  attentions: { data: ArrayLike<number>; shape: [number, number, number, number] };
  lang: FigureLanguage;
  L: number;
  H: number;
  T: number;
  Tk: number;
  /** The T query and Tk key labels as given (colLabels defaults to rowLabels when Tk = T), or null. */
  rowLabels: string[] | null;
  colLabels: string[] | null;
  /** One scale for every map, so that heads compare by eye. */
  scale: ColorScale;
  /** px of each map. */
  thumb: { width: number; height: number };
  /** Row by row: a row per layer, then 'mean'; in each a column per head, then 'mean' and 'max' (with aggregates). */
  maps: HeadsMap[];
  /** Title, column labels (H0.., mean, max), row labels (L0.., mean), the colour bar's numbers. */
  texts: LayoutText[];
  bar: ColorBar;
  /** The figure's accessible name. */
  name: string;
  width: number;
  height: number;
}

/** Where heads() puts every map, label and the colour bar, and its colour scale; throws as heads() does. */
export function headsLayout(attentions: AttentionsLike, options?: HeadsOptions): HeadsLayout;

/**
 * The model view, laid out as BertViz's (headsLayout(): the command line's SVG files draw the same grid): canvas thumbnails, a row per layer (data-layer)
 * and a column per head (data-head), plus the columns data-head="mean"/"max" (over heads) and the
 * row data-layer="mean" (over layers). Layers and heads are counted from 0 in every label. Click or Enter
 * enlarges one into [data-role=detail] (SVG cells with data-row/data-col/data-value while T <= 64,
 * a canvas beyond); hover sets [data-role=readout] to the exact value; [data-token] buttons
 * highlight their rows and columns. Root: div[data-stage=heads].
 */
export function heads(attentions: AttentionsLike, options?: HeadsOptions): HTMLDivElement;

/**
 * One (Tq, Tk) map of weights as canvas pixels, for sizes SVG cells cannot carry
 * (T = 2048 is 4 million weights): a scrolling, focusable canvas and a readout [data-role=readout]
 * with the exact value under the pointer or the keyboard's cursor (arrows, Home/End, PageUp/PageDown).
 * Root: div[data-stage=weights][data-rows][data-cols].
 */
export function canvasHeatmap(weights: TensorLike, options?: CanvasHeatmapOptions): HTMLDivElement;

export interface CanvasHeatmapOptions {
  /** The language of the figure's own words (default title, axis titles, cell names, readouts): 'en' (the default) or 'zh-CN' once `await loadLanguage('zh-CN')` has finished (before, a RangeError saying so); anything else is a RangeError naming lang. */
  lang?: FigureLanguage;
  /** Title above the map (default 'Attention weights'; '' for none). */
  title?: string;
  /** Tq / Tk labels, named in the readout. */
  rowLabels?: string[] | null;
  colLabels?: string[] | null;
  /** CSS px per weight (default: what fits 640 px, at least 1). */
  cellSize?: number;
  /** Token indices: weights in none of their rows or columns are faded. */
  highlight?: Set<number> | null;
  /** As heatmap()'s: 'weights' ([0, 1], the default) or 'signed' (diverging around 0). */
  colorScale?: ColorScaleKind;
  /** Per weight, 1 = masked (painted in the masked background). */
  masked?: ArrayLike<number> | null;
  /** A caption under the map ([data-role=canvas-note]) that also describes the canvas (aria-describedby). */
  note?: string | null;
}

/** The most weights heatmapOrCanvas() draws as SVG cells: 16,384 (128 x 128). */
export const CELL_BUDGET: number;

/**
 * heatmap() up to CELL_BUDGET weights; beyond, canvasHeatmap() (batches stacked as rows) with a
 * caption saying it is drawn on a canvas, in options.lang ('en', the default, or 'zh-CN').
 * The canvas is focusable (role application, named like the grid); arrows move a cursor whose
 * weight the readout says. It has no tick labels, colour bar, numbers or per-cell DOM.
 */
export function heatmapOrCanvas(weights: TensorLike, options?: HeatmapOptions): SVGSVGElement | HTMLDivElement;

export interface LinksOptions {
  /** The language of the figure's own words (default title, axis titles, cell names, readouts): 'en' (the default) or 'zh-CN' once `await loadLanguage('zh-CN')` has finished (before, a RangeError saying so); anything else is a RangeError naming lang. */
  lang?: FigureLanguage;
  stage?: string;
  title?: string;
  /** Labels of the Tq queries (left) and the Tk keys (right); default q0.., k0... (0.1's queryTokens, keyTokens: a TypeError.) */
  rowLabels?: string[];
  colLabels?: string[];
  masked?: ArrayLike<number> | null;
  attrs?: Record<string, string | number>;
}

/** BertViz-style lines from each query token to each key token, as strong as the weight (Tq, Tk). */
export function links(weights: TensorLike, options?: LinksOptions): SVGSVGElement;

export interface LineChartOptions {
  /** The language of the figure's own words (default title, axis titles, cell names, readouts): 'en' (the default) or 'zh-CN' once `await loadLanguage('zh-CN')` has finished (before, a RangeError saying so); anything else is a RangeError naming lang. */
  lang?: FigureLanguage;
  stage?: string;
  title?: string;
  xlabel?: string;
  width?: number;
  height?: number;
  attrs?: Record<string, string | number>;
}

/** A small line chart of a series (a loss curve); the root has data-count and data-last. */
export function lineChart(values: number[], options?: LineChartOptions): SVGSVGElement;

/** The colour scales: 'weights' (sequential on [0, 1]) or 'signed' (diverging around 0). */
export type ColorScaleKind = 'weights' | 'signed';

export interface ColorScale {
  kind: ColorScaleKind;
  min: number;
  max: number;
  /** 'seq', 'pos' or 'neg': which --attn-* colour a value takes. */
  tone(value: number): 'seq' | 'pos' | 'neg';
  /** Intensity in [0, 1]. */
  t(value: number): number;
}

/** The colour scale figures use: 'weights' on [0, 1], or signed, symmetric to the largest |value| included. */
export function colorScale(kind: ColorScaleKind, data: ArrayLike<number>, include?: (index: number) => boolean): ColorScale;

/** The colour legend drawn inside matrix(): -> { node, width, height }. */
export function legend(
  scale: ColorScale,
  options?: { x?: number; y?: number; hatchId?: string | null; lang?: FigureLanguage },
): { node: SVGGElement; width: number; height: number };

/** A number as a cell shows it: '0.0557', '3.939', '−∞'. */
export function formatNumber(value: number): string;

/** The exact value, as data-value and aria labels carry it: String(value). */
export function fullValue(value: number): string;

/** The names of the figures' colours: each is the custom property --attn-<name>. */
export type PaletteColor = 'cell' | 'ink' | 'ink-muted' | 'ink-strong' | 'grid' | 'weight' | 'pos' | 'neg' | 'hatch' | 'masked-bg' | 'focus' | 'source';

/** Each --attn-* colour's default as [light, dark] '#rrggbb' (figures.css's fallbacks), for drawing without CSS. Frozen. */
export const PALETTE: Readonly<Record<PaletteColor, readonly [string, string]>>;

/** The colour of NaN in a canvas map or a static file ('#a0a0a0'): grey, never mistaken for a weight. */
export const NAN_GREY: string;

/**
 * A cell's colour as figures.css draws it, color-mix(in oklab, tone calc(t * 85%), cell), for what
 * CSS does not colour (a canvas, a file written without a browser): tone, cell and the result are
 * sRGB bytes [r, g, b]; t is the intensity in [0, 1] (ColorScale.t).
 */
export function toneMix(tone: readonly [number, number, number], cell: readonly [number, number, number], t: number): [number, number, number];

/** The rough width in px of the widest of `texts` at font `size` px (0 for none): the room the figures leave for labels. */
export function widestText(texts: Iterable<unknown>, size: number): number;

export type PresetId = 'seed-004' | 'seed-002' | 'd2l' | 'sentence' | 'sliding-window' | 'alibi' | 'rotary' | 'decode' | 'random';
export type View = 'matrix' | 'heatmap' | 'links';

/**
 * The example a pipeline figure shows: a preset, inline data, or inline data edited over a preset,
 * then these settings. Bad values reject with a TypeError or RangeError naming the field.
 */
export interface PipelineStateSpec {
  /** Default 'seed-004' when no data is given. */
  preset?: PresetId;
  /**
   * A partial (or whole) explorer state: { x (T, d_in), wq, wk (H, d_in, d_q), wv (H, d_in, d_v),
   * wo (H d_v, d_in), tokens } (self-attention of X), or { q (B, Tq, d), k (B, Tk, d), v (B, Tk, dv),
   * tokens, keyTokens } (given Q, K, V). 2-D wq, wk, wv mean one head and 2-D q, k, v one batch, as
   * the API takes them. Merged over the preset when both are given (the preset's own values are
   * resized around the data). The explorer's link state (the JSON in #s=...) is accepted as it is.
   * Given values are drawn as given: an unknown key ('Wq'), a value that is not a finite number, or
   * a shape that does not fit the rest of the example rejects with an error naming the key and the
   * shape it needs, never a figure with other numbers.
   */
  data?: Record<string, unknown>;
  scoring?: Scoring;
  /** More scorings computed side by side (e.g. ['dot'] beside 'additive'). */
  compare?: Scoring[];
  /** true = 'top-left'; false or 'none' = no causal mask. */
  causal?: Causal | 'none';
  /** Valid lengths as d2l: (B) per batch or (B, Tq) per query row; null: none. */
  validLens?: number[] | number[][] | null;
  /**
   * As the API's MaskOptions.maskFill, a number: -1e6 (d2l's fill: a fully masked row becomes
   * uniform) or null / -Infinity (the default: such a row is zeros); the figures draw these two.
   */
  maskFill?: number | null;
  /** Number of heads H, 1..6 (examples with X only; new heads get seeded weights). */
  heads?: number;
  /** Grouped heads: how many K, V heads the H query heads share (a divisor of H; examples with X only). */
  kvHeads?: number;
  /** Sliding window [left, right], integers in [-1, 16] (-1: no limit on that side); null: none. */
  window?: AttentionWindow | null;
  /**
   * ALiBi: true for the paper's slopes for the example's heads, false for none, or one slope per
   * head (H numbers, each finite and > 0, also as float32), checked after `heads`; a RangeError
   * naming alibi otherwise.
   */
  alibi?: boolean | number[];
  /** Rotary positions on Q and K (examples with X and an even query width): true, false or { base, interleaved }. */
  rope?: RopeSetting;
  /** The head the matrix view shows (0-based). */
  head?: number;
  /** 'matrix' (default), 'heatmap' or 'links' (the weights of every head and scoring). */
  view?: View;
}

export interface PipelineSpec extends PipelineStateSpec {
  /** The module from loadAttention(): every number is computed by it. */
  attn: Attention;
  /** Stage ids to show (see stageIds()), drawn in pipeline order; default: the whole forward pass. Matrix view only. */
  stages?: string[];
  /** Also show the backward pass: target, dO, dP, dS, dQ, dK, dV and dW^Q, dW^K, dW^V. */
  backward?: boolean;
  /** Mark editable cells (X, the weights, the target, given Q, K, V); handling edits is the caller's. */
  editable?: boolean;
  /** One sentence under each matrix, as in the explorer. */
  captions?: boolean;
  /** The language of the stages' nouns, captions, band titles and cell names: 'en' (the default) or 'zh-CN' (the root's lang attribute too; pipeline() loads its words). */
  lang?: FigureLanguage;
}

// Async so that importing this entry costs the drawing code alone: the model (state, presets,
// compute, stages) loads on the first call, and only what that call needs.

/**
 * The explorer's pipeline (or the chosen stages) for an example, computed through spec.attn:
 * a <div class="attn-pipeline"> of cards, one svg[data-stage] per matrix (one per head/run shown),
 * or the heatmaps / links of every head. Loads the preset it names, the backward pass only when it
 * shows it, the heatmap and links views only for those views. Rejects like pipelineState() and on
 * unknown stage ids.
 */
export function pipeline(spec: PipelineSpec): Promise<HTMLDivElement>;

/**
 * The stage ids, in pipeline order: 'x', 'wq', 'wk', 'wv', 'q', 'k', 'v', 'rope', 'params',
 * 'scores', 'scaled', 'alibi', 'masked', 'weights', 'output', the heads through W^O
 * 'concat-output', 'wo', 'projected-output', and the backward pass 'target', 'd-projected',
 * 'd-output', 'd-weights', 'd-scores', 'dq', 'dk', 'dv', 'dwq', 'dwk', 'dwv', 'dwo'.
 */
export function stageIds(): Promise<string[]>;

/**
 * The explorer state (plain JSON, as in its links) a spec describes, once the preset it names is
 * loaded. Rejects with a TypeError (a wrong kind) or RangeError (a wrong size) naming the field.
 */
export function pipelineState(spec?: PipelineStateSpec): Promise<Record<string, unknown>>;

/**
 * A file's tensors (as attention-lab/io's readTensors() returns them) as a pipeline spec's `data`:
 * { x, wq, wk, wv } or { q, k, v }, nested arrays, with the file's tokens when they fit its rows;
 * null when the file holds attention weights alone. `transpose` names the weights stored as
 * nn.Linear's (out, in) (default: those that only fit X transposed). Rejects with a RangeError
 * naming the role and the shapes when the tensors fit none.
 */
export function pipelineData(file: TensorFile, transpose?: { wq?: boolean; wk?: boolean; wv?: boolean } | null): Promise<Record<string, unknown> | null>;

/** A figure's input is the API's: a Tensor, { data, shape } with any numeric array, or nested arrays. */
export type { Tensor, TensorLike };

/** What standaloneHtml() puts in the file: one element, its attributes and its inline data. */
export interface StandaloneSpec {
  /** 'attn-figure' and 'attn-training' compute (the wasm core is inlined, ~100 KiB more); the others draw given weights. */
  element: 'attn-figure' | 'attn-heatmap' | 'attn-heads' | 'attn-training';
  /**
   * The element's attributes, e.g. { stages: 'scores weights', editable: true }; false or null
   * leaves one out. No src. lang ('en' or 'zh-CN') is the element's and the page's language (<html lang>, the file's own words).
   */
  attributes?: Record<string, string | number | boolean | null | undefined>;
  /**
   * The element's child <script type="application/json">: for attn-figure a (partial) explorer
   * state ({ x, wq, wk, wv, tokens } or { q, k, v }), for attn-heatmap { weights, rowLabels,
   * colLabels, masked, title }, for attn-heads { attention, rowLabels, colLabels }. Typed arrays become arrays.
   */
  data?: unknown;
  /** The page's title. Default 'attention-lab figure'. */
  title?: string;
}

export interface StandaloneOptions {
  /** A package file's bytes or text by its path in the package ('web/figures/dom.js'); default: read beside the module. */
  read?: (path: string) => Promise<Uint8Array | string>;
}

/**
 * The text of ONE self-contained .html file showing the element: the package's modules, styles
 * and (for attn-figure) the wasm core packed into the page, so it opens from file:// with no
 * network, stays interactive and saves again. Needs CompressionStream (browsers, Node >= 18).
 */
export function standaloneHtml(spec: StandaloneSpec, options?: StandaloneOptions): Promise<string>;
