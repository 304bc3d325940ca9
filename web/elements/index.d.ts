// attention-lab/elements: importing it defines four custom elements (the package's only entry with
// side effects). From a plain page, no bundler needed:
//   <script type="module" src="node_modules/attention-lab/web/elements/index.js"></script>
// or in an app: import 'attention-lab/elements';
//
// <attn-figure> attributes (all optional):
//   preset      a PresetId of attention-lab/figures: 'seed-004' | 'seed-002' | 'd2l' | 'sentence' | 'sliding-window'
//               | 'alibi' | 'rotary' | 'decode' | 'random' (default seed-004)
//   data        JSON of a partial explorer state, e.g. {"x": [[1, 2], [0, 1]], "wq": [[[1, 0], [0, 1]]], ...}
//               or {"q": [[[...]]], "k": ..., "v": ...}; or put it in a child <script type="application/json">
//   stages      stage ids in any order, e.g. "scores weights output" (default: the forward pass)
//   scoring     'dot' | 'scaled-dot' | 'general' | 'additive' | 'concat';  compare: more scorings beside it
//   causal      present: top-left; or "bottom-right" / "none"
//   valid-lens  "2 6" (per batch) or "[[1, 2, 3]]" (per query row)
//   mask-fill   -1e6 (d2l's fill) | none (default);  heads: the number of heads;  head: the head shown (0-based)
//   window      "2 0": sliding window [left, right] (-1: no limit);  kv-heads: K, V heads shared (a divisor of heads)
//   alibi       present or "paper": the paper's slopes; "0.5 0.25": one slope per head (finite, > 0); "off"
//   rope        present or "halves" (Llama), "interleaved" (GPT-J), or JSON {"base": 500, "interleaved": true}
//   view        'matrix' | 'heatmap' | 'links'
//   backward    show the backward pass too;  editable: cells of X, W, the target can be typed or dragged
//   captions    a sentence under each matrix;  theme: 'light' | 'dark' | 'auto' (default: the page's color-scheme)
//   src         a .npy/.npz/.safetensors/JSON file with x, wq, wk, wv (or q, k, v; q_proj.weight ... too);
//               transpose: the weights stored as nn.Linear's (out, in), e.g. "wq wk wv"
// The wasm core loads once per page, when the first figure nears the viewport.
//
// <attn-heatmap> attributes: weights (JSON (Tq, Tk) or (B, Tq, Tk)), row-labels, col-labels
// ("the cat sat" or a JSON list), title, xlabel, ylabel, color-scale ('weights' | 'signed'),
// numbers, masked (JSON flags), theme; or a child <script type="application/json"> holding the
// weights array or { weights, rowLabels, colLabels, masked, title }. From a file: src (.npy, .npz,
// .safetensors or JSON, fetched relative to the page), tensor (its name), index (leading indices,
// "0 3" = layer 0, head 3; row-labels and col-labels default to the file's tokens where they fit). No wasm.
// Above 16,384 weights (figures' CELL_BUDGET) it draws on a canvas with a caption saying so (in the
// element's language), SVG and PNG export hidden. Child JSON keys of the wrong
// type are named: "colLabels must be an array of strings, got object". Files read for src are shared
// and held up to 64 MiB; a file no element shows any more is let go when its last element leaves.
//
// <attn-heads> attributes: src, tensor, index as above for attentions (L, H, T, Tk), (H, T, Tk) or
// BertViz's list; row-labels, col-labels (default: the file's tokens; the keys' the queries' when
// Tk = T), layers and heads (indices shown), aggregates ("false" hides mean and max), thumb-size
// (px), title; or a child <script type="application/json"> ({ attention, rowLabels, colLabels }).
// 0.1's names (the attribute and key tokens) are refused with a message naming the new ones.
// The model view of attention-lab/figures' heads(). No wasm.
//
// <attn-training> attributes: task ('induction' | 'copy' | 'reverse' | 'sort'; default induction),
// layers (1-4, default 2), heads (1-8, default 2), d-model (4-128, a multiple of heads; default 16),
// mlp (0-512, 0: attention only), batch (1-256, default 32), learning-rate (1e-5 to 1, default
// 0.01), max-steps (1-100000, default 1500). A small transformer trains on a worker from the moment
// the figure is in view: its loss curve, each head's previous-token and induction scores, the step a
// head became one, the model view of a probe sequence. Its button (Train / Pause / Resume) works
// from the keyboard; out of view for 5 s it pauses; removed from the page, its worker ends. Under
// prefers-reduced-motion: reduce it shows a stored run's snapshots with a stepper and trains only
// when asked. A bad value shows "layers: expected an integer from 1 to 4, got \"x\"" and nothing trains.
//
// A file that cannot be fetched or read shows a message naming the attribute and the file
// ("src: attn.npy could not be loaded (HTTP 404)", "tensor: attn.npz has no tensor \"x\" ...").
//
// All four take lang ('en' | 'zh-CN'): the language of their own words (toolbar, export menu,
// loading note, the figure's axis titles, cell names, readouts, captions, and the messages of a
// wrong attribute) and of the HTML file Export -> HTML saves (its lang attribute and <html lang>);
// without it the nearest ancestor's lang or <html lang>, else English. Changing it redraws; another
// value shows "lang: expected 'en' or 'zh-CN', got ...". zh-CN's words load with the page's first
// zh-CN figure (a page in English never downloads them); a saved zh-CN file carries them.
//
// All four render into an open shadow root (page styles do not reach in; theirs do not leak out),
// themed by the --attn-* custom properties (see attention-lab/figures), with SVG and PNG export
// buttons (hidden on <attn-heads>, whose grid is canvases), and dispatch 'attn-render' (bubbles,
// composed) after each render. Matrices inside keep the explorer's contract: svg[data-stage] with
// cells [data-row][data-col][data-value].

/** The common part: export and the render event (not exported: see `export {}` below). */
declare class FigureElement extends HTMLElement {
  /** Downloads the figure as one SVG or PNG file. */
  exportAs(kind: 'svg' | 'png'): Promise<void>;
}

/** The attributes each element re-renders on (its observedAttributes; `theme` is styling only). */
export type AttnFigureAttribute =
  | 'lang'
  | 'preset'
  | 'data'
  | 'stages'
  | 'scoring'
  | 'compare'
  | 'causal'
  | 'valid-lens'
  | 'mask-fill'
  | 'window'
  | 'alibi'
  | 'rope'
  | 'heads'
  | 'kv-heads'
  | 'head'
  | 'view'
  | 'backward'
  | 'editable'
  | 'captions'
  | 'src'
  | 'transpose';
export type AttnHeatmapAttribute =
  'lang' | 'weights' | 'row-labels' | 'col-labels' | 'title' | 'xlabel' | 'ylabel' | 'color-scale' | 'numbers' | 'masked' | 'src' | 'tensor' | 'index';
export type AttnHeadsAttribute = 'lang' | 'src' | 'tensor' | 'index' | 'row-labels' | 'col-labels' | 'layers' | 'heads' | 'aggregates' | 'thumb-size' | 'title';
export type AttnTrainingAttribute = 'lang' | 'task' | 'layers' | 'heads' | 'd-model' | 'mlp' | 'batch' | 'learning-rate' | 'max-steps';

export declare class AttnFigure extends FigureElement {
  static readonly observedAttributes: AttnFigureAttribute[];
  /** The explorer state shown (after edits), or null before the first render. */
  readonly state: Record<string, unknown> | null;
}

export declare class AttnHeatmap extends FigureElement {
  static readonly observedAttributes: AttnHeatmapAttribute[];
}

export declare class AttnHeads extends FigureElement {
  static readonly observedAttributes: AttnHeadsAttribute[];
}

/** What <attn-training>'s `state` reports: the training driver's state after the latest step. */
export interface AttnTrainingState {
  /** Steps trained. */
  step: number;
  /** The training loss of every step. */
  losses: number[];
  /** [step, probe accuracy] every few steps. */
  accuracies: [number, number][];
  /** Whether the training loop runs. */
  running: boolean;
  /** Where a head first crossed a score's threshold (layers and heads from 0). */
  crossings: { kind: 'previousToken' | 'induction'; layer: number; head: number; step: number; score: number }[];
  /** The latest measure of the probe batch: its accuracy, each head's scores [layer][head], the first sequence's attentions (L, H, T, T). */
  probe: {
    step: number;
    accuracy: number;
    scores: { previousToken: number[][]; induction: number[][] };
    attentions: { data: Float32Array; shape: number[] };
    tokens: number[];
  } | null;
}

export declare class AttnTraining extends FigureElement {
  static readonly observedAttributes: AttnTrainingAttribute[];
  /** Whether it trains now. */
  readonly running: boolean;
  /** The training's state, or null before it started (and under reduced motion until Train live). */
  readonly state: AttnTrainingState | null;
  /** Starts or resumes training (the button's Train / Resume); resolves when the training stops. */
  train(): Promise<void>;
  /** Pauses after the step under way (the button's Pause). */
  pause(): Promise<void>;
  /** Under reduced motion: shows snapshot `index` of the stored run (clamped to its snapshots). */
  showSnapshot(index: number): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'attn-figure': AttnFigure;
    'attn-heatmap': AttnHeatmap;
    'attn-heads': AttnHeads;
    'attn-training': AttnTraining;
  }
  interface HTMLElementEventMap {
    'attn-render': CustomEvent<{ renders?: number; edited?: boolean }>;
  }
}

// Without an explicit export list, every top-level declaration of a .d.ts module counts as
// exported, FigureElement too, which the module does not export.
export {};
