// The embedding guide's examples, as data, with its words from the guide.* messages
// (web/i18n/guide/): guide.js draws each { example } block twice, as code and live, from the same
// string, so the code shown is always the code that runs.
// Blocks: { p } prose (trusted HTML), { h } a subheading (trusted HTML), { code } code shown only,
// { example } code shown and run, { table } rows of [attribute, values, meaning (trusted HTML)],
// { post } the sample blog post (HTML, run). A table's values are a list: strings are code,
// { words } is text in the page's language.
import { HEIGHT_LISTENER } from '../embed/height-listener.js';
import { t } from '../../../i18n/index.js';

const SEED_004_DATA = `{
      "x": [[1, 2], [0, 1], [3, 1]],
      "wq": [[[1, 0], [0, 1]]],
      "wk": [[[1, 1], [0, 1]]],
      "wv": [[[1, 0], [1, 1]]],
      "tokens": ["I", "like", "tea"]
    }`;

const PRESENT = { words: 'guide.values.present' };
const words = (name) => ({ words: `guide.values.${name}` });

// [attribute, values]; what each does is the message guide.attr.figure.<attribute>.
const FIGURE_ATTRIBUTES = [
  ['preset', ['seed-004', 'seed-002', 'd2l', 'sentence', 'sliding-window', 'alibi', 'rotary', 'decode', 'random']],
  ['data', ['JSON']],
  ['stages', [words('ids')]],
  ['scoring', ['dot', 'scaled-dot', 'general', 'additive', 'concat']],
  ['compare', [words('scorings')]],
  ['causal', [PRESENT, 'top-left', 'bottom-right', 'none']],
  ['valid-lens', ['"2 6"', '"[[1, 2, 3]]"']],
  ['mask-fill', ['none', '-1e6']],
  ['heads', ['1 … 6']],
  ['head', ['0 … H−1']],
  ['kv-heads', [words('divisor')]],
  ['window', ['"2 0"', 'none']],
  ['alibi', [PRESENT, 'paper', '"0.5 0.25"', 'off']],
  ['rope', [PRESENT, 'halves', 'interleaved', 'JSON {"base", "interleaved"}']],
  ['view', ['matrix', 'heatmap', 'links']],
  ['backward', [PRESENT]],
  ['editable', [PRESENT]],
  ['captions', [PRESENT]],
  ['theme', ['light', 'dark', 'auto']],
  ['lang', ['en', 'zh-CN']],
];

// [attribute, values, message]: the message guide.attr.heatmap.<message>.
const HEATMAP_ATTRIBUTES = [
  ['weights', ['JSON (Tq, Tk)', 'JSON (B, Tq, Tk)'], 'weights'],
  ['row-labels, col-labels', ['"the cat sat"', words('json-list')], 'row-labels'],
  ['title', [words('text')], 'title'],
  ['xlabel, ylabel', [words('text')], 'xlabel'],
  ['color-scale', ['weights', 'signed'], 'color-scale'],
  ['numbers', [PRESENT], 'numbers'],
  ['masked', [words('json-flags')], 'masked'],
  ['theme', ['light', 'dark', 'auto'], 'theme'],
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

/** The guide in `lang` ('en', 'zh-CN') for a site whose elements.js and embed.html are at these URLs. */
export function guideSections({ elementsUrl, embedUrl, inductionUrl = 'attention.safetensors', lang = 'en' }) {
  const say = (key, params) => t(lang, key, params);
  // A table's values: strings as { code }, the words in the page's language as { text }.
  const table = (rows, meaning) =>
    rows.map(([name, values, key = name]) => [
      name,
      values.map((v) => (typeof v === 'string' ? { code: v } : { text: say(v.words) })),
      say(`${meaning}.${key}`),
    ]);
  // The iframe's own page in the guide's language.
  const embedQuery = lang === 'en' ? '?preset=d2l' : `?preset=d2l&lang=${lang}`;
  return [
    {
      id: 'blank-page',
      title: say('guide.blank-page.title'),
      blocks: [
        { p: say('guide.blank-page.p1') },
        {
          code: `<!doctype html>
<html lang="${lang}">
  <head>
    <meta charset="utf-8">
    <script type="module" src="${elementsUrl}"></script>
  </head>
  <body>
    <attn-figure preset="seed-004"></attn-figure>
  </body>
</html>`,
        },
        { p: say('guide.blank-page.p2') },
        {
          code: `npm pack ~/attention-lab && npm install ./attention-lab-0.1.0.tgz   # ${say('guide.comment.tarball')}

<script type="module" src="./node_modules/attention-lab/web/elements/index.js"></script>
<attn-figure preset="d2l" view="heatmap"></attn-figure>`,
        },
      ],
    },
    {
      id: 'vite',
      title: say('guide.vite.title'),
      blocks: [
        { p: say('guide.vite.p1') },
        {
          code: `npm pack ~/attention-lab && npm install ./attention-lab-0.1.0.tgz   # ${say('guide.comment.tarball')}

// main.js
import 'attention-lab/elements';      // ${say('guide.comment.defines')}

<!-- ${say('guide.comment.template')} -->
<attn-figure preset="seed-004" stages="scores weights output"></attn-figure>`,
        },
        { p: say('guide.vite.p2') },
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
        { p: say('guide.figure.p1') },
        { table: table(FIGURE_ATTRIBUTES, 'guide.attr.figure') },
        { h: say('guide.figure.h-preset') },
        { example: '<attn-figure preset="d2l" stages="masked weights output"></attn-figure>' },
        { h: say('guide.figure.h-data') },
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
        { h: say('guide.figure.h-scoring') },
        { example: '<attn-figure preset="seed-004" scoring="additive" compare="dot" stages="weights"></attn-figure>' },
        { h: say('guide.figure.h-causal') },
        { example: '<attn-figure preset="seed-004" causal stages="masked weights"></attn-figure>' },
        { h: say('guide.figure.h-valid-lens') },
        { example: '<attn-figure preset="seed-004" valid-lens="[[0, 2, 3]]" mask-fill="-1e6" stages="masked weights"></attn-figure>' },
        { h: say('guide.figure.h-heads') },
        { example: '<attn-figure preset="sentence" heads="3" view="heatmap"></attn-figure>' },
        { example: '<attn-figure preset="sentence" head="1" view="links"></attn-figure>' },
        { h: say('guide.figure.h-backward') },
        { example: '<attn-figure preset="seed-004" backward captions stages="output"></attn-figure>' },
        { h: say('guide.figure.h-editable') },
        { example: '<attn-figure preset="seed-004" editable stages="x weights"></attn-figure>' },
        { p: say('guide.figure.p-editable') },
        { h: say('guide.figure.h-theme') },
        { example: '<attn-figure preset="seed-004" theme="dark" stages="weights"></attn-figure>' },
      ],
    },
    {
      id: 'attn-heatmap',
      title: '<attn-heatmap>',
      blocks: [
        { p: say('guide.heatmap.p1') },
        { table: table(HEATMAP_ATTRIBUTES, 'guide.attr.heatmap') },
        {
          example: `<attn-heatmap title="${say('guide.example.head-1')}" weights="[[0.9, 0.1, 0], [0.3, 0.6, 0.1], [0.2, 0.3, 0.5]]" row-labels="the cat sat" col-labels="the cat sat"></attn-heatmap>`,
        },
        {
          example: `<attn-heatmap numbers color-scale="signed">
  <script type="application/json">
    { "weights": [[2.1, -0.4], [-1.3, 0.8]], "rowLabels": ["q1", "q2"], "colLabels": ["k1", "k2"], "title": "${say('guide.example.scores')}" }
  </script>
</attn-heatmap>`,
        },
        { example: '<attn-heatmap weights="[[1, 0, 0], [0.4, 0.6, 0], [0.2, 0.3, 0.5]]" masked="[[0, 1, 1], [0, 0, 1], [0, 0, 0]]"></attn-heatmap>' },
      ],
    },
    {
      id: 'files',
      title: say('guide.files.title'),
      blocks: [
        { p: say('guide.files.p1') },
        {
          code: `import json, torch; from transformers import AutoModel, AutoTokenizer; from safetensors.torch import save_file
tokenizer, model = AutoTokenizer.from_pretrained('bert-base-uncased'), AutoModel.from_pretrained('bert-base-uncased', output_attentions=True)
inputs = tokenizer('The cat sat on the mat.', return_tensors='pt')
attention = torch.cat(model(**inputs).attentions).detach()        # (L, H, T, T)
save_file({'attention': attention}, 'attention.safetensors', metadata={'tokens': json.dumps(tokenizer.convert_ids_to_tokens(inputs['input_ids'][0]))})`,
        },
        { p: say('guide.files.p2') },
        { example: `<attn-heads src="${inductionUrl}"></attn-heads>` },
        { p: say('guide.files.p3') },
        { example: `<attn-heatmap src="${inductionUrl}" index="1 0" title="${say('guide.example.layer-head')}"></attn-heatmap>` },
        {
          code: `import { readTensors, writeSafetensors } from 'attention-lab/io';   // .npy, .npz, .safetensors, JSON
const { tensors, tokens } = await readTensors(file, { name: file.name }); // ${say('guide.comment.file')}
const bytes = writeSafetensors({ attention: tensors.attention }, { tokens });`,
        },
      ],
    },
    {
      id: 'induction',
      title: say('guide.induction.title'),
      blocks: [{ p: say('guide.induction.p1') }, { p: say('guide.induction.p2') }, { example: '<attn-training task="induction"></attn-training>' }],
    },
    {
      id: 'notebooks',
      title: say('guide.notebooks.title'),
      blocks: [
        { p: say('guide.notebooks.p1') },
        {
          code: `!node ~/attention-lab/bin/attention-lab.mjs figure attention.safetensors --index 0,3 -o fig.html   # ${say('guide.comment.clone')}
from IPython.display import IFrame; IFrame('fig.html', width=720, height=560)`,
        },
        { p: say('guide.notebooks.p2') },
        { p: say('guide.notebooks.p3') },
        {
          code: `import numpy as np
np.save('weights.npy', weights.astype(np.float32))          # (T, T)
!node ~/attention-lab/bin/attention-lab.mjs figure weights.npy --row-labels "the cat sat" -o weights.html
np.savez('layer.npz', x=x, wq=wq, wk=wk, wv=wv)              # X (T, d_in), W (d_in, d)
!node ~/attention-lab/bin/attention-lab.mjs figure layer.npz --view pipeline -o layer.html   # ${say('guide.comment.build-wasm')}
IFrame('layer.html', width=900, height=900)`,
        },
      ],
    },
    {
      id: 'theming',
      title: say('guide.theming.title'),
      blocks: [
        { p: say('guide.theming.p1', { properties: THEME_PROPERTIES.map((p) => `<code>${p}</code>`).join(', ') }) },
        {
          example:
            '<attn-figure preset="seed-004" stages="weights output" style="--attn-weight: #0f766e; --attn-pos: #b45309; --attn-font: Georgia, serif"></attn-figure>',
        },
      ],
    },
    {
      id: 'iframe',
      title: say('guide.iframe.title'),
      blocks: [
        { p: say('guide.iframe.p1') },
        {
          example: `<iframe src="${embedUrl}${embedQuery}#view=heatmap" title="${say('guide.iframe.frame-title')}" loading="lazy" style="width: 100%; height: 420px; border: 0"></iframe>`,
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
      title: say('guide.post.title'),
      blocks: [
        { p: say('guide.post.p1') },
        {
          post: `<h3>${say('guide.post.heading')}</h3>
<p>${say('guide.post.masked')}</p>
<attn-figure preset="d2l" stages="masked weights output"></attn-figure>
<p>${say('guide.post.additive')}</p>
<attn-figure preset="seed-004" scoring="additive" compare="scaled-dot" stages="scores weights"></attn-figure>
<p>${say('guide.post.backward')}</p>
<attn-figure preset="seed-004" backward captions stages="weights output"></attn-figure>`,
        },
      ],
    },
  ];
}
