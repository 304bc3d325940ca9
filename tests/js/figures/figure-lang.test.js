// The figure functions' own words in the reader's language: lang 'zh-CN' leaves no English word in
// what a figure shows or says to assistive technology (its text, aria-labels, titles, tooltips,
// readouts and captions), lang 'en' is the default, and any other lang is a RangeError naming lang
// and the two values. zh-CN's words load on demand: a figure asked for zh-CN before
// loadLanguage('zh-CN') has finished is a RangeError saying so, never a figure in English.
// Drawn in real Chromium (the browser project: the figures measure text and paint canvases); in Node only the lang checks run.
import { beforeAll, describe, expect, it } from 'vitest';
import { attach } from '../support/dom.js';
import { canvasHeatmap, heads, heatmap, heatmapOrCanvas, legend, lineChart, links, loadLanguage, matrix, colorScale } from '../../../web/figures/index.js';
import { englishInFigure } from '../../support/english.js';

const englishIn = (root) => englishInFigure(root);
// In Node (no DOM) only the lang checks run: every figure refuses a bad lang before it draws.
const HAS_DOM = typeof document !== 'undefined';

// Tokens in Chinese, so a label is never mistaken for an English word left over.
const TOKENS = ['我', '爱', '猫'];
const weights = { data: Float32Array.of(0.7, 0.2, 0.1, 0.3, 0.4, 0.3, 0.1, 0.1, 0.8), shape: [3, 3] };
const stacked = { data: Float32Array.from({ length: 2 * 2 * 9 }, (_, k) => ((k % 9) + 1) / 45), shape: [2, 2, 3, 3] };
const masked = Uint8Array.of(0, 1, 1, 0, 0, 1, 0, 0, 0);

/** Moves the pointer over the middle of a canvas, so its readout speaks. */
function pointAt(canvas) {
  const box = canvas.getBoundingClientRect();
  canvas.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }));
}

// Each figure function with a call that draws its words: default title and axis titles, masked
// cells, batches, aggregates, the canvas form.
const FIGURES = {
  heatmap: (lang) => heatmap(weights, { lang, masked, rowLabels: TOKENS, colLabels: TOKENS }),
  'heatmap of batches': (lang) => heatmap({ data: stacked.data.subarray(0, 18), shape: [2, 3, 3] }, { lang }),
  canvasHeatmap: (lang) => canvasHeatmap(weights, { lang, rowLabels: TOKENS, colLabels: TOKENS }),
  'heatmapOrCanvas above the cell budget': (lang) => heatmapOrCanvas({ data: new Float32Array(130 * 130).fill(1 / 130), shape: [130, 130] }, { lang }),
  heads: (lang) => heads(stacked, { lang, rowLabels: TOKENS }),
  lineChart: (lang) => lineChart([2, 1.5, 1], { lang }),
  'lineChart without values': (lang) => lineChart([], { lang }),
  links: (lang) => links(weights, { lang, rowLabels: TOKENS, colLabels: TOKENS }),
  matrix: (lang) => matrix({ data: stacked.data.subarray(0, 18), shape: [2, 3, 3] }, { lang, title: '查询', masked: new Uint8Array(18).fill(1, 0, 2) }),
  legend: (lang) => {
    const bar = legend(colorScale('weights', weights.data), { lang, hatchId: 'hatch' }).node; // checks lang first
    const node = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    node.append(bar);
    return node;
  },
};

// First in the file: the module's zh-CN words are not loaded until the next block loads them.
describe('zh-CN before loadLanguage("zh-CN") has finished', () => {
  for (const [name, draw] of Object.entries(FIGURES)) {
    it(`${name}: a RangeError naming lang and loadLanguage, not a figure in English`, () => {
      expect(() => draw('zh-CN'), name).toThrow(RangeError);
      expect(() => draw('zh-CN'), name).toThrow(/lang 'zh-CN' is not loaded yet: await loadLanguage\('zh-CN'\)/);
    });
  }

  it('English needs no loading: loadLanguage("en") resolves at once', async () => {
    await expect(loadLanguage('en')).resolves.toBeUndefined();
  });

  it('loadLanguage() refuses any other language, naming lang and both values', async () => {
    for (const bad of ['fr', 'zh', 'EN', '', null, 3]) {
      await expect(loadLanguage(bad), JSON.stringify(bad)).rejects.toThrow(RangeError);
      await expect(loadLanguage(bad)).rejects.toThrow(/^loadLanguage: lang must be 'en' or 'zh-CN', got /);
    }
  });
});

describe('zh-CN after loadLanguage("zh-CN")', () => {
  beforeAll(async () => {
    await loadLanguage('zh-CN');
  });

  it('loads once: a second call resolves to the same words', async () => {
    await expect(loadLanguage('zh-CN')).resolves.toBeUndefined();
  });

  it.skipIf(HAS_DOM)('every figure takes lang "zh-CN" (in Node the checks pass and drawing needs a DOM)', () => {
    for (const [name, draw] of Object.entries(FIGURES)) expect(() => draw('zh-CN'), name).not.toThrow(/lang/);
  });
});

describe.skipIf(!HAS_DOM)('figure functions in zh-CN', () => {
  beforeAll(async () => {
    await loadLanguage('zh-CN');
  });

  for (const [name, draw] of Object.entries(FIGURES)) {
    it(`${name} shows and says no English word`, () => {
      const figure = attach(draw('zh-CN'));
      for (const canvas of figure.querySelectorAll('canvas')) pointAt(canvas);
      expect(englishIn(figure)).toEqual([]);
      expect(figure.textContent + figure.outerHTML, 'it speaks Chinese').toMatch(/[\u4e00-\u9fff]/);
    });
  }

  it('heads(): a thumbnail enlarged and pointed at speaks Chinese too (layer, head, mean, max)', () => {
    const figure = attach(heads(stacked, { lang: 'zh-CN', rowLabels: TOKENS }));
    const thumb = figure.querySelector('canvas[data-layer="1"][data-head="mean"]');
    thumb.click();
    pointAt(thumb);
    expect(englishIn(figure)).toEqual([]);
    expect(figure.querySelector('[data-role=readout]').textContent).toMatch(/^层 1，各头的均值：查询 爱 \(1\) → 键 爱 \(1\):0\.\d+$/);
    expect([...figure.querySelectorAll('.attn-heads-grid .attn-axis')].map((n) => n.textContent)).toEqual([
      '头 0',
      '头 1',
      '均值',
      '最大值',
      '层 0',
      '层 1',
      '均值',
    ]);
  });

  it('heatmap(): the axis titles are 键 and 查询, the cells named and titled in Chinese', () => {
    const figure = heatmap(weights, { lang: 'zh-CN', masked, rowLabels: TOKENS, colLabels: TOKENS });
    const titles = [...figure.querySelectorAll('.attn-axis-title')].map((n) => n.textContent);
    expect(titles).toEqual(['键', '查询']);
    expect(figure.querySelector('.attn-title').textContent).toBe('注意力权重');
    const cell = figure.querySelector('[data-row="0"][data-col="1"]');
    expect(cell.querySelector('title').textContent).toBe('查询 我 对键 爱 的权重：0.2（已掩蔽）');
  });
});

describe.skipIf(!HAS_DOM)('figure functions in English', () => {
  it('speak English by default and with lang "en", word for word the same', () => {
    for (const [name, draw] of Object.entries(FIGURES)) {
      const text = (node) => node.textContent + [...node.querySelectorAll('[aria-label]')].map((n) => n.getAttribute('aria-label')).join('|');
      expect(text(draw('en')), name).toBe(text(draw(undefined)));
    }
    expect([...heatmap(weights).querySelectorAll('.attn-axis-title')].map((n) => n.textContent)).toEqual(['Keys', 'Queries']);
  });
});

describe('a lang other than en or zh-CN', () => {
  for (const [name, draw] of Object.entries(FIGURES)) {
    it(`${name}: a RangeError naming lang and both values`, () => {
      for (const bad of ['fr', 'zh', 'EN', '', null, 3]) {
        expect(() => draw(bad), `${name}, lang ${JSON.stringify(bad)}`).toThrow(RangeError);
        expect(() => draw(bad)).toThrow(/lang must be 'en' or 'zh-CN', got/);
      }
    });
  }
});
