// The embedding guide's English (guide.*): its page, sections, prose (trusted HTML, <code> for
// code), attribute tables, the comments inside its code and the sample post (spread into ../en.js).
// The code itself stays in web/site/features/guide/content.js, the same in both languages.
export default {
  'guide.page-title': 'attention-lab · embedding guide',
  'guide.page-description':
    'Put a live, exact attention figure into a blog post or an app: <attn-figure>, <attn-heatmap>, the iframe embed and the figure functions of attention-lab.',
  'guide.nav-label': 'Guide',
  'guide.title': 'Embedding attention-lab figures',
  'guide.lede':
    'Live, exact attention figures in your own page: two custom elements, an iframe for hosts that strip scripts, and figure functions for your framework. Every example below is live.',
  'guide.code-label': '{section}: code {n}',
  'guide.table.attribute': 'Attribute',
  'guide.table.values': 'Values',
  'guide.table.meaning': 'What it does',

  'guide.blank-page.title': 'A live figure in a blank HTML page',
  'guide.blank-page.p1':
    'Save this as <code>figure.html</code> and open it: one script tag, one element. The figure computes every number in the reader’s browser (the attention-lab core, compiled to WebAssembly, loads once per page when a figure scrolls near).',
  'guide.blank-page.p2':
    'Without this site: install the package and point the script at it (a page that loads the package’s modules is served by any static server, for example <code>python3 -m http.server</code>). For a file that opens anywhere with no server and no network, use <b>Export → HTML</b> on any figure, or the command line below: that one file carries its code, its styles, its data and the WebAssembly core.',
  'guide.comment.tarball': 'not on the npm registry yet: a tarball of your clone',

  'guide.vite.title': 'In a Vite app (or any bundler)',
  'guide.vite.p1':
    'No configuration: the package’s <code>.wasm</code> files are found through <code>new URL(…, import.meta.url)</code>, which Vite copies as assets in <code>vite build</code> and serves in <code>vite</code>.',
  'guide.vite.p2': 'With your own framework, the figure functions return plain DOM nodes (import the stylesheet once):',
  'guide.comment.defines': 'defines <attn-figure> and <attn-heatmap>',
  'guide.comment.template': 'index.html, or any framework template',

  'guide.figure.p1':
    'The explorer’s pipeline, or some of its stages, for a preset or your own numbers. Every matrix carries its exact values (<code>data-value</code>), every cell is reachable with the keyboard (Tab, then the arrow keys), and SVG / PNG download the figure.',
  'guide.figure.h-preset': '<code>preset</code> and <code>stages</code>',
  'guide.figure.h-data': '<code>data</code>: your own numbers',
  'guide.figure.h-scoring': '<code>scoring</code> and <code>compare</code>',
  'guide.figure.h-causal': '<code>causal</code>',
  'guide.figure.h-valid-lens': '<code>valid-lens</code> and <code>mask-fill</code>',
  'guide.figure.h-heads': '<code>heads</code>, <code>head</code> and <code>view</code>',
  'guide.figure.h-backward': '<code>backward</code> and <code>captions</code>',
  'guide.figure.h-editable': '<code>editable</code>',
  'guide.figure.p-editable':
    'Type a digit on a cell of X (or press Enter) to edit it: Enter sets it and moves down, Tab right, Shift goes back, Escape cancels. Paste a whole matrix onto a cell (LaTeX, a NumPy print, CSV or TSV, a Markdown table, plain rows; 1/2 and full-width digits too) and the sizes follow it. Drag a cell sideways to scrub it; in a figure that shows the scores, a click on a score masks it.',
  'guide.figure.h-theme': '<code>theme</code>',

  'guide.values.present': '(present)',
  'guide.values.ids': 'stage ids',
  'guide.values.scorings': 'scorings',
  'guide.values.divisor': 'a divisor of heads',
  'guide.values.json-list': 'JSON list',
  'guide.values.json-flags': 'JSON flags',
  'guide.values.text': 'text',

  'guide.attr.figure.preset': 'A worked example of the explorer (default <code>seed-004</code>).',
  'guide.attr.figure.data':
    'Your own numbers: <code>{"x", "wq", "wk", "wv", "tokens"}</code> (self-attention of X) or <code>{"q", "k", "v", "tokens", "keyTokens"}</code>; or put the JSON in a child <code>&lt;script type="application/json"&gt;</code>. Over a preset it edits the preset.',
  'guide.attr.figure.stages':
    'Which matrices, e.g. <code>"scores weights output"</code>: <code>x, wq, wk, wv, q, k, v, rope, params, scores, scaled, alibi, masked, weights, output, concat-output, wo, projected-output</code>; <code>target, d-projected, d-output, d-weights, d-scores, dq, dk, dv, dwq, dwk, dwv, dwo</code>. Default: the forward pass.',
  'guide.attr.figure.scoring': 'The score function a(q, k).',
  'guide.attr.figure.compare': 'More scorings computed side by side.',
  'guide.attr.figure.causal': 'The causal mask.',
  'guide.attr.figure.valid-lens': 'd2l’s valid lengths, per batch or per query row.',
  'guide.attr.figure.mask-fill': 'A row with every key masked: zero weights, or d2l’s −10⁶ fill (uniform), as the API’s <code>maskFill</code>.',
  'guide.attr.figure.heads': 'The number of heads (new heads get seeded weights).',
  'guide.attr.figure.head': 'The head the matrices show.',
  'guide.attr.figure.kv-heads': 'Grouped heads: how many K, V heads the query heads share (1: multi-query).',
  'guide.attr.figure.window': 'A sliding window [left, right]: query i sees keys i − left … i + right (−1: no limit on that side).',
  'guide.attr.figure.alibi':
    'ALiBi: −m_h |i + Tk − Tq − j| added to the scaled scores, with the paper’s slopes m_h or one given slope per head (finite, &gt; 0; as many as heads).',
  'guide.attr.figure.rope': 'Rotary positions on Q and K: halves as Llama, adjacent pairs as GPT-J (X examples of even width).',
  'guide.attr.figure.view': 'Matrices with numbers, d2l-style heatmaps, or BertViz-style token links.',
  'guide.attr.figure.backward': 'Add the backward pass: target, dO, dP, dS, dQ, dK, dV, dW.',
  'guide.attr.figure.editable': 'Readers can type or drag the inputs and click a score to mask it; everything recomputes.',
  'guide.attr.figure.captions': 'One sentence under each matrix.',
  'guide.attr.figure.theme': 'Default: the page’s <code>color-scheme</code>.',
  'guide.attr.figure.lang': 'The language of the figure’s own words (all three elements). Default: the nearest <code>lang</code>, else English.',

  'guide.heatmap.p1': 'A heatmap of weights you already have (from PyTorch, say), like d2l’s <code>show_heatmaps</code>. No WebAssembly is loaded.',
  'guide.attr.heatmap.weights':
    'The weights; or a child <code>&lt;script type="application/json"&gt;</code> with the array or <code>{weights, rowLabels, colLabels, masked, title}</code>.',
  'guide.attr.heatmap.row-labels': 'Query and key labels.',
  'guide.attr.heatmap.title': 'The title above the map.',
  'guide.attr.heatmap.xlabel': 'Axis titles (default Keys, Queries).',
  'guide.attr.heatmap.color-scale': 'Sequential on [0, 1], or diverging around 0 (scores, gradients).',
  'guide.attr.heatmap.numbers': 'Write the values in the cells.',
  'guide.attr.heatmap.masked': '1 where a cell is masked (drawn hatched).',
  'guide.attr.heatmap.theme': 'As for <code>&lt;attn-figure&gt;</code>.',
  'guide.example.head-1': 'Head 1',
  'guide.example.scores': 'Scores',
  'guide.example.layer-head': 'Layer 1, head 0',

  'guide.files.title': 'Your own model: attentions from a file',
  'guide.files.p1':
    'Hugging Face models return their attentions with <code>output_attentions=True</code>: one <code>(1, H, T, T)</code> tensor per layer. Five lines of Python save them, with the tokens, as a <code>.safetensors</code> file (<code>numpy.save</code> to <code>.npy</code> works too, and so does BertViz’s JSON):',
  'guide.files.p2':
    'Then one element shows every layer and head, with the mean and the maximum over heads and the mean over layers; click a head to enlarge it, point at a pixel to read its weight, pick tokens to follow their rows and columns. The file here holds a two-layer model trained on this site’s own machine to continue repeated letters: layer 1’s heads (the second layer; layers count from 0) look at the letter after the earlier occurrence of the current one (induction heads).',
  'guide.files.p3':
    'One head as a heatmap: <code>index</code> picks the leading axes (layer 1, head 0, counted from 0), <code>tensor</code> names the tensor when the file holds several; the labels are the file’s tokens unless <code>row-labels</code> and <code>col-labels</code> give them. <code>&lt;attn-figure src="layer.safetensors" transpose="wq wk wv"&gt;</code> computes the whole pipeline from a file’s <code>x</code>, <code>wq</code>, <code>wk</code>, <code>wv</code> (PyTorch’s <code>nn.Linear</code> weights are <code>(out, in)</code>: list them in <code>transpose</code>) or <code>q</code>, <code>k</code>, <code>v</code>. A file that cannot be read says so in the figure, naming the attribute and the file.',
  'guide.comment.file': 'a File from <input type="file">',

  'guide.induction.title': 'Watch an induction head form',
  'guide.induction.p1':
    'A previous-token head attends from each token to the token just before it; an induction head, in a later layer, uses that to find the earlier occurrence of the current token and attends to the token that came after it, so the model can continue a sequence it has seen once (Olsson et al. 2022, <a href="https://transformer-circuits.pub/2022/in-context-learning-and-induction-heads/index.html">“In-context Learning and Induction Heads”</a>). It takes two attention layers, because the induction head’s keys are built from what the previous-token head wrote (Elhage et al. 2021, <a href="https://transformer-circuits.pub/2021/framework/index.html">“A Mathematical Framework for Transformer Circuits”</a>).',
  'guide.induction.p2':
    'This element trains a two-layer model on repeated random letters in your browser, from the moment it scrolls into view: the loss drops when a head of the second layer becomes an induction head, and each head’s previous-token (<code>prev</code>) and induction (<code>ind</code>) scores show which.',

  'guide.notebooks.title': 'Notebooks: a figure in a Jupyter cell',
  'guide.notebooks.p1':
    'The command line writes one self-contained <code>.html</code> file (no server, no CDN, nothing fetched), so a notebook shows it even where the network is blocked. Two lines in a Python cell:',
  'guide.notebooks.p2':
    "Or inline in the notebook itself (it then travels with the <code>.ipynb</code>): <code>from IPython.display import HTML; HTML(open('fig.html').read())</code>.",
  'guide.notebooks.p3':
    'A figure of a NumPy array made in the notebook: save it with <code>np.save</code>, then draw it. A (T, T) array of weights is a heatmap; (H, T, T) or (L, H, T, T) is the model view with <code>--view heads</code>; X, Wq, Wk, Wv saved together (<code>np.savez</code>) are the whole computation, recomputed live in the file, with <code>--view pipeline</code>.',
  'guide.comment.clone': '~/attention-lab: your clone',
  'guide.comment.build-wasm': 'once: npm run build:wasm in the clone',

  'guide.theming.title': 'Colours and fonts',
  'guide.theming.p1':
    'The figures draw inside a shadow root: your page’s styles do not reach in, theirs do not leak out. They read these custom properties, which you may set on the elements or on any ancestor (<code>:root</code> included): {properties}. Unset, they follow your page’s <code>color-scheme</code> (light or dark).',

  'guide.iframe.title': 'An iframe, for hosts that strip scripts',
  'guide.iframe.p1':
    'Some blog hosts remove <code>&lt;script&gt;</code>. The explorer’s <strong>Embed</strong> button gives an iframe of <code>embed.html</code> for its current state; the short script after it (optional) resizes the iframe to the figure.',
  'guide.iframe.frame-title': 'Attention figure (attention-lab)',

  'guide.post.title': 'A sample blog post',
  'guide.post.p1': 'What a post with three live figures looks like. Its source is three elements in ordinary prose.',
  'guide.post.heading': 'Attention, masked and unmasked',
  'guide.post.masked':
    'In d2l’s chapter on attention scoring functions, two batches of ten identical keys meet valid lengths of 2 and 6. The keys beyond each length are masked: their scores become −10⁶ before the softmax, so their weights are zero and each output is the mean of the first values.',
  'guide.post.additive':
    'Additive attention (a small network with a tanh) and the scaled dot product score the same queries and keys differently. Here they are side by side on the three tokens of the hand-worked example (3 tokens, width 2): the dot product is far more decided about token 3.',
  'guide.post.backward':
    'Training needs the backward pass. With a target for the output, every gradient of that example follows from the chain rule, and attention-lab checks each one against the core’s own backward:',
};
