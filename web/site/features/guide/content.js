// The embedding guide's text and examples, as data: guide.js draws each { example } block twice,
// as code and live, from the same string, so the code shown is always the code that runs.
// Blocks: { p } prose (trusted HTML), { code } code shown only, { example } code shown and run,
// { table } rows of [attribute, values, meaning], { post } the sample blog post (HTML, run).
import { HEIGHT_LISTENER } from '../embed/height-listener.js';

const SEED_004_DATA = `{
      "x": [[1, 2], [0, 1], [3, 1]],
      "wq": [[[1, 0], [0, 1]]],
      "wk": [[[1, 1], [0, 1]]],
      "wv": [[[1, 0], [1, 1]]],
      "tokens": ["I", "like", "tea"]
    }`;

export const FIGURE_ATTRIBUTES = [
  [
    'preset',
    'seed-004 · seed-002 · d2l · sentence · sliding-window · alibi · rotary · decode · random',
    'A worked example of the explorer (default seed-004).',
  ],
  [
    'data',
    'JSON',
    'Your own numbers: {"x", "wq", "wk", "wv", "tokens"} (self-attention of X) or {"q", "k", "v", "tokens", "keyTokens"}; or put the JSON in a child <script type="application/json">. Over a preset it edits the preset.',
  ],
  [
    'stages',
    'ids',
    'Which matrices, e.g. "scores weights output": x, wq, wk, wv, q, k, v, rope, params, scores, scaled, alibi, masked, weights, output, concat-output, wo, projected-output; target, d-projected, d-output, d-weights, d-scores, dq, dk, dv, dwq, dwk, dwv, dwo. Default: the forward pass.',
  ],
  ['scoring', 'dot · scaled-dot · general · additive · concat', 'The score function a(q, k).'],
  ['compare', 'scorings', 'More scorings computed side by side.'],
  ['causal', '(present) · top-left · bottom-right · none', 'The causal mask.'],
  ['valid-lens', '"2 6" · "[[1, 2, 3]]"', 'd2l’s valid lengths, per batch or per query row.'],
  ['mask-fill', 'none · -1e6', 'A row with every key masked: zero weights, or d2l’s −10⁶ fill (uniform), as the API’s maskFill.'],
  ['heads', '1 … 6', 'The number of heads (new heads get seeded weights).'],
  ['head', '0 … H−1', 'The head the matrices show.'],
  ['kv-heads', 'a divisor of heads', 'Grouped heads: how many K, V heads the query heads share (1: multi-query).'],
  ['window', '"2 0" · none', 'A sliding window [left, right]: query i sees keys i − left … i + right (−1: no limit on that side).'],
  [
    'alibi',
    '(present) · paper · "0.5 0.25" · off',
    'ALiBi: −m_h |i + Tk − Tq − j| added to the scaled scores, with the paper’s slopes m_h or one given slope per head (finite, > 0; as many as heads).',
  ],
  [
    'rope',
    '(present) · halves · interleaved · JSON {"base", "interleaved"}',
    'Rotary positions on Q and K: halves as Llama, adjacent pairs as GPT-J (X examples of even width).',
  ],
  ['view', 'matrix · heatmap · links', 'Matrices with numbers, d2l-style heatmaps, or BertViz-style token links.'],
  ['backward', '(present)', 'Add the backward pass: target, dO, dP, dS, dQ, dK, dV, dW.'],
  ['editable', '(present)', 'Readers can type or drag the inputs and click a score to mask it; everything recomputes.'],
  ['captions', '(present)', 'One sentence under each matrix.'],
  ['theme', 'light · dark · auto', 'Default: the page’s color-scheme.'],
  ['lang', 'en · zh-CN', 'The language of the figure’s own words (all three elements). Default: the nearest lang, else English.'],
];

export const HEATMAP_ATTRIBUTES = [
  [
    'weights',
    'JSON (Tq, Tk) or (B, Tq, Tk)',
    'The weights; or a child <script type="application/json"> with the array or {weights, rowLabels, colLabels, masked, title}.',
  ],
  ['row-labels, col-labels', '"the cat sat" · JSON list', 'Query and key labels.'],
  ['title', 'text', 'The title above the map.'],
  ['xlabel, ylabel', 'text', 'Axis titles (default Keys, Queries).'],
  ['color-scale', 'weights · signed', 'Sequential on [0, 1], or diverging around 0 (scores, gradients).'],
  ['numbers', '(present)', 'Write the values in the cells.'],
  ['masked', 'JSON flags', '1 where a cell is masked (drawn hatched).'],
  ['theme', 'light · dark · auto', 'As for <attn-figure>.'],
];

export const THEME_PROPERTIES = [
  '--attn-cell',
  '--attn-ink',
  '--attn-ink-muted',
  '--attn-ink-strong',
  '--attn-grid',
  '--attn-weight',
  '--attn-pos',
  '--attn-neg',
  '--attn-hatch',
  '--attn-masked-bg',
  '--attn-focus',
  '--attn-font',
];

/** The guide for a site whose elements.js and embed.html are at these URLs. */
export function guideSections({ elementsUrl, embedUrl, inductionUrl = 'attention.safetensors' }) {
  return [
    {
      id: 'blank-page',
      title: 'A live figure in a blank HTML page',
      blocks: [
        {
          p: 'Save this as <code>figure.html</code> and open it: one script tag, one element. The figure computes every number in the reader’s browser (the attention-lab core, compiled to WebAssembly, loads once per page when a figure scrolls near).',
        },
        {
          code: `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <script type="module" src="${elementsUrl}"></script>
  </head>
  <body>
    <attn-figure preset="seed-004"></attn-figure>
  </body>
</html>`,
        },
        {
          p: 'Without this site: install the package and point the script at it (a page that loads the package’s modules is served by any static server, for example <code>python3 -m http.server</code>). For a file that opens anywhere with no server and no network, use <b>Export → HTML</b> on any figure, or the command line below: that one file carries its code, its styles, its data and the WebAssembly core.',
        },
        {
          code: `npm pack ~/attention-lab && npm install ./attention-lab-0.1.0.tgz   # not on the npm registry yet: a tarball of your clone

<script type="module" src="./node_modules/attention-lab/web/elements/index.js"></script>
<attn-figure preset="d2l" view="heatmap"></attn-figure>`,
        },
      ],
    },
    {
      id: 'vite',
      title: 'In a Vite app (or any bundler)',
      blocks: [
        {
          p: 'No configuration: the package’s <code>.wasm</code> files are found through <code>new URL(…, import.meta.url)</code>, which Vite copies as assets in <code>vite build</code> and serves in <code>vite</code>.',
        },
        {
          code: `npm pack ~/attention-lab && npm install ./attention-lab-0.1.0.tgz   # not on the npm registry yet: a tarball of your clone

// main.js
import 'attention-lab/elements';      // defines <attn-figure> and <attn-heatmap>

<!-- index.html, or any framework template -->
<attn-figure preset="seed-004" stages="scores weights output"></attn-figure>`,
        },
        { p: 'With your own framework, the figure functions return plain DOM nodes (import the stylesheet once):' },
        {
          code: `import { loadAttention } from 'attention-lab';
import { heatmap, matrix, pipeline } from 'attention-lab/figures';
import 'attention-lab/figures.css';

document.body.append(heatmap([[0.9, 0.1], [0.3, 0.7]], { rowLabels: ['the', 'cat'], colLabels: ['the', 'cat'] }));
document.body.append(matrix([[1, 2], [0, 1]], { stage: 'x', title: 'X' }));

const attn = await loadAttention();
document.body.append(await pipeline({ attn, preset: 'd2l', stages: ['masked', 'weights', 'output'] }));`,
        },
      ],
    },
    {
      id: 'attn-figure',
      title: '<attn-figure>',
      blocks: [
        {
          p: 'The explorer’s pipeline, or some of its stages, for a preset or your own numbers. Every matrix carries its exact values (<code>data-value</code>), every cell is reachable with the keyboard (Tab, then the arrow keys), and SVG / PNG download the figure.',
        },
        { table: FIGURE_ATTRIBUTES },
        { h: 'preset and stages' },
        { example: '<attn-figure preset="d2l" stages="masked weights output"></attn-figure>' },
        { h: 'data: your own numbers' },
        {
          example: `<attn-figure stages="scores weights">
  <script type="application/json">
    ${SEED_004_DATA}
  </script>
</attn-figure>`,
        },
        {
          example: `<attn-figure stages="weights" data='{"q": [[[1, 0]]], "k": [[[1, 0], [0, 1], [1, 1]]], "v": [[[1], [2], [3]]], "keyTokens": ["a", "b", "c"]}'></attn-figure>`,
        },
        { h: 'scoring and compare' },
        { example: '<attn-figure preset="seed-004" scoring="additive" compare="dot" stages="weights"></attn-figure>' },
        { h: 'causal' },
        { example: '<attn-figure preset="seed-004" causal stages="masked weights"></attn-figure>' },
        { h: 'valid-lens and mask-fill' },
        { example: '<attn-figure preset="seed-004" valid-lens="[[0, 2, 3]]" mask-fill="-1e6" stages="masked weights"></attn-figure>' },
        { h: 'heads, head and view' },
        { example: '<attn-figure preset="sentence" heads="3" view="heatmap"></attn-figure>' },
        { example: '<attn-figure preset="sentence" head="1" view="links"></attn-figure>' },
        { h: 'backward and captions' },
        { example: '<attn-figure preset="seed-004" backward captions stages="output"></attn-figure>' },
        { h: 'editable' },
        { example: '<attn-figure preset="seed-004" editable stages="x weights"></attn-figure>' },
        {
          p: 'Type a digit on a cell of X (or press Enter) to edit it: Enter sets it and moves down, Tab right, Shift goes back, Escape cancels. Paste a whole matrix onto a cell (LaTeX, a NumPy print, CSV or TSV, a Markdown table, plain rows; 1/2 and full-width digits too) and the sizes follow it. Drag a cell sideways to scrub it; in a figure that shows the scores, a click on a score masks it.',
        },
        { h: 'theme' },
        { example: '<attn-figure preset="seed-004" theme="dark" stages="weights"></attn-figure>' },
      ],
    },
    {
      id: 'attn-heatmap',
      title: '<attn-heatmap>',
      blocks: [
        { p: 'A heatmap of weights you already have (from PyTorch, say), like d2l’s <code>show_heatmaps</code>. No WebAssembly is loaded.' },
        { table: HEATMAP_ATTRIBUTES },
        {
          example:
            '<attn-heatmap title="Head 1" weights="[[0.9, 0.1, 0], [0.3, 0.6, 0.1], [0.2, 0.3, 0.5]]" row-labels="the cat sat" col-labels="the cat sat"></attn-heatmap>',
        },
        {
          example: `<attn-heatmap numbers color-scale="signed">
  <script type="application/json">
    { "weights": [[2.1, -0.4], [-1.3, 0.8]], "rowLabels": ["q1", "q2"], "colLabels": ["k1", "k2"], "title": "Scores" }
  </script>
</attn-heatmap>`,
        },
        { example: '<attn-heatmap weights="[[1, 0, 0], [0.4, 0.6, 0], [0.2, 0.3, 0.5]]" masked="[[0, 1, 1], [0, 0, 1], [0, 0, 0]]"></attn-heatmap>' },
      ],
    },
    {
      id: 'files',
      title: 'Your own model: attentions from a file',
      blocks: [
        {
          p: 'Hugging Face models return their attentions with <code>output_attentions=True</code>: one <code>(1, H, T, T)</code> tensor per layer. Five lines of Python save them, with the tokens, as a <code>.safetensors</code> file (<code>numpy.save</code> to <code>.npy</code> works too, and so does BertViz’s JSON):',
        },
        {
          code: `import json, torch; from transformers import AutoModel, AutoTokenizer; from safetensors.torch import save_file
tokenizer, model = AutoTokenizer.from_pretrained('bert-base-uncased'), AutoModel.from_pretrained('bert-base-uncased', output_attentions=True)
inputs = tokenizer('The cat sat on the mat.', return_tensors='pt')
attention = torch.cat(model(**inputs).attentions).detach()        # (L, H, T, T)
save_file({'attention': attention}, 'attention.safetensors', metadata={'tokens': json.dumps(tokenizer.convert_ids_to_tokens(inputs['input_ids'][0]))})`,
        },
        {
          p: 'Then one element shows every layer and head, with the mean and the maximum over heads and the mean over layers; click a head to enlarge it, point at a pixel to read its weight, pick tokens to follow their rows and columns. The file here holds a two-layer model trained on this site’s own machine to continue repeated letters: layer 1’s heads (the second layer; layers count from 0) look at the letter after the earlier occurrence of the current one (induction heads).',
        },
        { example: `<attn-heads src="${inductionUrl}"></attn-heads>` },
        {
          p: 'One head as a heatmap: <code>index</code> picks the leading axes (layer 1, head 0, counted from 0), <code>tensor</code> names the tensor when the file holds several; the labels are the file’s tokens unless <code>row-labels</code> and <code>col-labels</code> give them. <code>&lt;attn-figure src="layer.safetensors" transpose="wq wk wv"&gt;</code> computes the whole pipeline from a file’s <code>x</code>, <code>wq</code>, <code>wk</code>, <code>wv</code> (PyTorch’s <code>nn.Linear</code> weights are <code>(out, in)</code>: list them in <code>transpose</code>) or <code>q</code>, <code>k</code>, <code>v</code>. A file that cannot be read says so in the figure, naming the attribute and the file.',
        },
        { example: `<attn-heatmap src="${inductionUrl}" index="1 0" title="Layer 1, head 0"></attn-heatmap>` },
        {
          code: `import { readTensors, writeSafetensors } from 'attention-lab/io';   // .npy, .npz, .safetensors, JSON
const { tensors, tokens } = await readTensors(file, { name: file.name }); // a File from <input type="file">
const bytes = writeSafetensors({ attention: tensors.attention }, { tokens });`,
        },
      ],
    },
    {
      id: 'notebooks',
      title: 'Notebooks: a figure in a Jupyter cell',
      blocks: [
        {
          p: 'The command line writes one self-contained <code>.html</code> file (no server, no CDN, nothing fetched), so a notebook shows it even where the network is blocked. Two lines in a Python cell:',
        },
        {
          code: `!node ~/attention-lab/bin/attention-lab.mjs figure attention.safetensors --index 0,3 -o fig.html   # ~/attention-lab: your clone
from IPython.display import IFrame; IFrame('fig.html', width=720, height=560)`,
        },
        {
          p: "Or inline in the notebook itself (it then travels with the .ipynb): <code>from IPython.display import HTML; HTML(open('fig.html').read())</code>.",
        },
        {
          p: 'A figure of a NumPy array made in the notebook: save it with <code>np.save</code>, then draw it. A (T, T) array of weights is a heatmap; (H, T, T) or (L, H, T, T) is the model view with <code>--view heads</code>; X, Wq, Wk, Wv saved together (<code>np.savez</code>) are the whole computation, recomputed live in the file, with <code>--view pipeline</code>.',
        },
        {
          code: `import numpy as np
np.save('weights.npy', weights.astype(np.float32))          # (T, T)
!node ~/attention-lab/bin/attention-lab.mjs figure weights.npy --row-labels "the cat sat" -o weights.html
np.savez('layer.npz', x=x, wq=wq, wk=wk, wv=wv)              # X (T, d_in), W (d_in, d)
!node ~/attention-lab/bin/attention-lab.mjs figure layer.npz --view pipeline -o layer.html   # once: npm run build:wasm in the clone
IFrame('layer.html', width=900, height=900)`,
        },
      ],
    },
    {
      id: 'theming',
      title: 'Colours and fonts',
      blocks: [
        {
          p: `The figures draw inside a shadow root: your page’s styles do not reach in, theirs do not leak out. They read these custom properties, which you may set on the elements or on any ancestor (<code>:root</code> included): ${THEME_PROPERTIES.map((p) => `<code>${p}</code>`).join(', ')}. Unset, they follow your page’s <code>color-scheme</code> (light or dark).`,
        },
        {
          example:
            '<attn-figure preset="seed-004" stages="weights output" style="--attn-weight: #0f766e; --attn-pos: #b45309; --attn-font: Georgia, serif"></attn-figure>',
        },
      ],
    },
    {
      id: 'iframe',
      title: 'An iframe, for hosts that strip scripts',
      blocks: [
        {
          p: 'Some blog hosts remove <code>&lt;script&gt;</code>. The explorer’s <strong>Embed</strong> button gives an iframe of <code>embed.html</code> for its current state; the short script after it (optional) resizes the iframe to the figure.',
        },
        {
          example: `<iframe src="${embedUrl}?preset=d2l#view=heatmap" title="Attention figure (attention-lab)" loading="lazy" style="width: 100%; height: 420px; border: 0"></iframe>`,
        },
        {
          code: `<script>
  ${HEIGHT_LISTENER}
</script>`,
        },
      ],
    },
    {
      id: 'sample-post',
      title: 'A sample blog post',
      blocks: [
        { p: 'What a post with three live figures looks like. Its source is three elements in ordinary prose.' },
        {
          post: `<h3>Attention, masked and unmasked</h3>
<p>In d2l’s chapter on attention scoring functions, two batches of ten identical keys meet valid lengths of 2 and 6. The keys beyond each length are masked: their scores become −10⁶ before the softmax, so their weights are zero and each output is the mean of the first values.</p>
<attn-figure preset="d2l" stages="masked weights output"></attn-figure>
<p>Additive attention (a small network with a tanh) and the scaled dot product score the same queries and keys differently. Here they are side by side on the three tokens of the hand-worked example (3 tokens, width 2): the dot product is far more decided about token 3.</p>
<attn-figure preset="seed-004" scoring="additive" compare="scaled-dot" stages="scores weights"></attn-figure>
<p>Training needs the backward pass. With a target for the output, every gradient of that example follows from the chain rule, and attention-lab checks each one against the core’s own backward:</p>
<attn-figure preset="seed-004" backward captions stages="weights output"></attn-figure>`,
        },
      ],
    },
  ];
}
