// The training lab (?view=lab) in Chromium: Train starts the worker's training and the loss falls,
// an induction head forms and is noted (its frames while it trains: lab-frames.test.js), zeroing a
// head's output changes the probe loss exactly as the API's forward with that head zeroed does,
// a saved model loads back with the same logits, and the page is keyboard and axe-core clean.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../support/site.js';
import { axeViolations, blocking } from '../support/axe.js';
import { loadAttention } from '../../web/src/index.js';
import { readTensors } from '../../web/io/index.js';
import { inductionTask } from '../../web/model/train/tasks.js';

const SHOTS = fileURLToPath(new URL('../artifacts/lab/', import.meta.url));
const PROBE_SEED = 1000; // driver.js's probe batch: inductionTask({ seed: 1000 }).next(16)
// Same wasm code in Node and Chromium (the SIMD build, no FMA): float32 losses agree to rounding of
// the order of summation at most; 1e-5 relative is ~100 float32 ulps of a loss near 1.
const RELATIVE = 1e-5;
// A drawn weight (float32 printed in full) against the core's float32 trace: the pipeline recomputes
// from float64 Q, K, V rounded to float32, a few float32 ulps of the scores apart (1e-7 here, the
// node suite's tests/js/model/head-pipeline.test.js); another step's weights differ by 1e-2 and more.
const WEIGHTS_TOLERANCE = 2e-5;

let site;
let attn;
beforeAll(async () => {
  site = await startSite();
  attn = await loadAttention({ simd: true });
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await site?.close();
});

const open = (query) =>
  site.open(query).then(async (opened) => {
    await opened.page.waitForSelector('[data-role="status"][data-step="0"]', { timeout: 30000 });
    return opened;
  });
const status = (page) => page.$eval('[data-role="status"]', (p) => ({ ...p.dataset }));

/** The page's model parameters as plain tensors. */
const pageParameters = (page) =>
  page.evaluate(async () => {
    const map = await window.attentionLab.lab.trainer().model.parameters();
    return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, { data: Array.from(v.data), shape: v.shape }]));
  });
/** The weights the head view's pipeline draws (data-value: float32 printed in full) as [row][col]. */
const drawnWeights = (page) =>
  page.$eval('[data-role="head-pipeline"] .attn-pipeline svg[data-stage="weights"]', (svg) => {
    const cells = [];
    for (const cell of svg.querySelectorAll('[data-value][data-row]'))
      (cells[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.dataset.value);
    return cells;
  });

/** (L, H, T, T) attentions' head `head` of layer `layer`, the rows and columns of `like` ([row][col]). */
const headOf = (attentions, [, H, T], layer, head, like) => like.map((row, i) => row.map((_, j) => attentions[((layer * H + head) * T + i) * T + j]));

/** The clicked head's drawn weights, and the same head's in the page model's forward trace now (first probe sequence). */
async function pipelineAndTrace(page, layer, head) {
  const shown = await drawnWeights(page);
  const { attentions, shape } = await page.evaluate(async () => {
    const trainer = window.attentionLab.lab.trainer();
    const { trace } = await trainer.model.forward(trainer.probeBatch.tokens, { trace: true });
    const [, L, H, T] = trace.attentions.shape;
    return { attentions: Array.from(trace.attentions.data.subarray(0, L * H * T * T)), shape: [L, H, T] };
  });
  return { shown, trace: headOf(attentions, shape, layer, head, shown) };
}

/** The largest |a - b| over two [row][col] arrays of one shape. */
const worstDifference = (a, b) => Math.max(...a.flatMap((row, i) => row.map((v, j) => Math.abs(v - b[i][j]))));

const asFloat32 = (map) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, { data: Float32Array.from(v.data), shape: v.shape }]));

describe('the training lab', () => {
  let page;
  let problems;
  let config;
  beforeAll(async () => {
    ({ page, problems } = await open('?view=lab'));
    config = await page.evaluate(() => window.attentionLab.lab.trainer().config);
  });

  it('is reachable from the masthead, shows the induction preset, and is axe-core clean', async () => {
    const { page: explorer } = await site.open('');
    await explorer.click('[data-action="lab"]');
    await explorer.waitForSelector('.lab-title');
    // The page writes its state's link into the address 250 ms after a change: the view stays in it.
    await explorer.waitForTimeout(600);
    expect(new URL(explorer.url()).searchParams.get('view')).toBe('lab');
    await explorer.close();
    expect(config).toMatchObject({ vocab: 26, dModel: 32, layers: 2, heads: 4, maxLength: 24, positions: 'learned', mlp: 0 });
    expect(blocking(await axeViolations(page))).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'before.png'), fullPage: true });
  });

  it('trains from the keyboard: the loss falls, and an induction head forms and is noted', async () => {
    await page.focus('[data-action="lab-train"]');
    await page.keyboard.press('Enter');
    const started = Date.now();
    await page.waitForSelector('[data-role="notes"] li[data-kind="induction"]', { timeout: 120000 });
    const seconds = (Date.now() - started) / 1000;
    await page.click('[data-action="lab-pause"]');
    await page.waitForSelector('.panel-lab[data-running="false"]');
    const note = await page.$eval('[data-role="notes"] li[data-kind="induction"]', (li) => ({ text: li.textContent, ...li.dataset }));
    const losses = await page.evaluate(() => window.attentionLab.lab.trainer().state.losses);
    console.log(`lab: first induction head after ${seconds.toFixed(1)} s (step ${note.step}); "${note.text}"`);
    expect(note.text).toBe(`layer ${note.layer} head ${note.head} became an induction head at step ${note.step}`);
    expect(Number(note.layer)).toBe(1); // an induction head needs the previous-token head below it
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(losses.slice(-10))).toBeLessThan(0.7 * mean(losses.slice(0, 10)));
    expect(Number((await status(page)).accuracy)).toBeGreaterThan(0.5);
    await page.screenshot({ path: path.join(SHOTS, 'after.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('zeroing a head changes the probe loss as the API forward with that head zeroed does', async () => {
    const note = await page.$eval('[data-role="notes"] li[data-kind="induction"]', (li) => ({ ...li.dataset }));
    await page.selectOption('[data-field="ablate-layer"]', note.layer);
    await page.selectOption('[data-field="ablate-head"]', note.head);
    await page.click('[data-action="lab-ablate"]');
    await page.waitForSelector(`[data-role="ablation"][data-layer="${note.layer}"][data-head="${note.head}"]`);
    const shown = await page.$eval('[data-role="ablation"]', (p) => ({ ...p.dataset }));
    // Independently here: the same parameters with head h's columns of out.weight (d, d) zeroed.
    const parameters = asFloat32(await pageParameters(page));
    const out = parameters[`layers.${note.layer}.out.weight`];
    const dh = config.dModel / config.heads;
    for (let row = 0; row < config.dModel; row++) for (let c = 0; c < dh; c++) out.data[row * config.dModel + Number(note.head) * dh + c] = 0;
    const model = attn.transformer(config);
    model.setParameters(parameters);
    const probe = inductionTask({ seed: PROBE_SEED }).next(16);
    const { loss } = model.gradients(probe.tokens, { targets: probe.targets, lossMask: probe.lossMask });
    model.dispose();
    const lossAfter = Number(shown.lossAfter);
    console.log(
      `lab: ablating layer ${note.layer} head ${note.head}: probe loss ${shown.lossBefore} -> ${shown.lossAfter} (API ${loss}), accuracy ${shown.accuracyBefore} -> ${shown.accuracyAfter}`,
    );
    expect(Math.abs(lossAfter - loss) / loss).toBeLessThan(RELATIVE);
    expect(lossAfter).toBeGreaterThan(Number(shown.lossBefore)); // the induction head mattered
  });

  it("a clicked head's pipeline on the probe sequence has the model's forward trace weights for that head", async () => {
    const note = await page.$eval('[data-role="notes"] li[data-kind="induction"]', (li) => ({ ...li.dataset }));
    await page.click(`[data-role="model-view"] canvas[data-layer="${note.layer}"][data-head="${note.head}"]`);
    await page.waitForSelector(`[data-role="head-pipeline"][data-layer="${note.layer}"][data-head="${note.head}"] svg[data-stage="weights"]`);
    const stages = await page.$$eval('[data-role="head-pipeline"] svg[data-stage]', (svgs) => [...new Set(svgs.map((s) => s.dataset.stage))]);
    expect(stages).toEqual(expect.arrayContaining(['q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output', 'lab-x'].filter((s) => s !== 'lab-x')));
    // X after the LayerNorm: tokens by features, on a diverging scale (its values are signed).
    const xFigure = await page.$eval('[data-role="head-pipeline"] svg[data-stage="lab-x"]', (svg) => ({
      axes: [...svg.querySelectorAll('.attn-axis-title')].map((a) => a.textContent),
      legendBelowZero: [...svg.querySelectorAll('text')].some((text) => text.textContent.startsWith('−')),
    }));
    expect(xFigure).toEqual({ axes: ['Features (columns of X)', 'Tokens'], legendBelowZero: true });
    const { shown, trace } = await pipelineAndTrace(page, Number(note.layer), Number(note.head));
    expect(shown.length).toBe(16);
    const worst = worstDifference(shown, trace);
    console.log(`lab: layer ${note.layer} head ${note.head}'s pipeline weights vs the trace: worst ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(WEIGHTS_TOLERANCE);
    // Hovering a weight derives it, as the explorer's explanation panel does (KaTeX lines).
    await page.hover('[data-role="head-pipeline"] .attn-pipeline svg[data-stage="weights"] .cell[data-row="5"][data-col="2"]');
    await page.waitForSelector('[data-role="derivation"][data-stage="weights"] .katex');
    expect(await page.$eval('[data-role="derivation"] .explain-exact code', (c) => Number(c.textContent))).toBe(shown[5][2]);
    await page.screenshot({ path: path.join(SHOTS, 'head-pipeline.png'), fullPage: true });
    expect(blocking(await axeViolations(page))).toEqual([]);
  });

  it('the timeline scrubs back to the first snapshot and forward to the last', async () => {
    const steps = await page.evaluate(() => window.attentionLab.lab.trainer().state.snapshots.map((s) => s.step));
    expect(steps.length).toBeGreaterThan(2);
    const titled = (text) =>
      page.waitForFunction(
        (want) => document.querySelector('[data-role="model-view"] .attn-title')?.textContent === want,
        `Attention weights at step ${text}`,
        { timeout: 5000 },
      );
    await page.focus('[data-role="timeline"]');
    await page.keyboard.press('Home');
    await titled(steps[0]);
    await page.keyboard.press('End');
    await titled(steps.at(-1));
  });

  it("a head clicked while the timeline shows a snapshot shows that snapshot's weights, not the model's now", async () => {
    const note = await page.$eval('[data-role="notes"] li[data-kind="induction"]', (li) => ({ ...li.dataset }));
    const [layer, head] = [Number(note.layer), Number(note.head)];
    // The first snapshot after step 0: trained a little, long before the induction head formed.
    const snap = await page.evaluate(() => {
      const { snapshots, probe } = window.attentionLab.lab.trainer().state;
      const [L, H, T] = probe.attentions.shape;
      return { step: snapshots[1].step, attentions: Array.from(snapshots[1].attentions.data), shape: [L, H, T] };
    });
    await page.focus('[data-role="timeline"]');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (step) => document.querySelector('[data-role="model-view"] .attn-title')?.textContent === `Attention weights at step ${step}`,
      snap.step,
    );
    await page.click(`[data-role="model-view"] canvas[data-layer="${layer}"][data-head="${head}"]`);
    await page.waitForSelector(`[data-role="head-pipeline"][data-snapshot="1"][data-layer="${layer}"][data-head="${head}"] svg[data-stage="weights"]`);
    expect(await page.$eval('#lab-head-title', (h) => h.textContent)).toContain(`at step ${snap.step}:`);
    const { shown, trace: now } = await pipelineAndTrace(page, layer, head);
    const then = headOf(snap.attentions, snap.shape, layer, head, shown);
    const worst = worstDifference(shown, then);
    const fromNow = worstDifference(shown, now);
    console.log(
      `lab: layer ${layer} head ${head} at snapshot step ${snap.step}: worst ${worst.toExponential(2)} from the snapshot, ${fromNow.toFixed(3)} from the model now`,
    );
    expect(worst).toBeLessThan(WEIGHTS_TOLERANCE);
    expect(fromNow).toBeGreaterThan(1e-2); // the head has changed since: the weights shown are not the model's now
    // Back at the end of the timeline, a click shows the model now again.
    await page.focus('[data-role="timeline"]');
    await page.keyboard.press('End');
    await page.click(`[data-role="model-view"] canvas[data-layer="${layer}"][data-head="${head}"]`);
    await page.waitForSelector(`[data-role="head-pipeline"][data-snapshot=""][data-layer="${layer}"][data-head="${head}"] svg[data-stage="weights"]`);
    const again = await pipelineAndTrace(page, layer, head);
    expect(worstDifference(again.shown, again.trace)).toBeLessThan(WEIGHTS_TOLERANCE);
  });

  it('saves the model as .safetensors that loads back, here and in the page, with the same logits', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="lab-save-model"]')]);
    const file = path.join(SHOTS, 'lab-model.safetensors');
    await download.saveAs(file);
    const { tensors, metadata } = await readTensors(new Uint8Array(fs.readFileSync(file)), { name: 'lab-model.safetensors' });
    expect(JSON.parse(metadata['attention-lab.config'])).toEqual(config);
    const probe = inductionTask({ seed: PROBE_SEED }).next(16);
    const logitsOf = (p) =>
      p.evaluate(
        async (tokens) =>
          Array.from((await window.attentionLab.lab.trainer().model.forward({ data: Int32Array.from(tokens.data), shape: tokens.shape })).logits.data),
        { data: Array.from(probe.tokens.data), shape: probe.tokens.shape },
      );
    const saved = await logitsOf(page);
    const model = attn.transformer(config);
    model.setParameters(Object.fromEntries(Object.entries(tensors).map(([k, v]) => [k, { data: v.data, shape: v.shape }])));
    expect(Array.from(model.forward(probe.tokens).logits.data)).toEqual(saved);
    model.dispose();
    // Reset (a fresh model), then load the file into the page: the same logits again.
    await page.click('[data-action="lab-reset"]');
    await page.waitForSelector('[data-role="status"][data-step="0"]');
    expect(await logitsOf(page)).not.toEqual(saved);
    await page.setInputFiles('[data-role="load-model"]', file);
    await page.waitForFunction(() => document.querySelector('.lab-tools [aria-live]:last-child')?.textContent.includes('lab-model.safetensors'));
    expect(await logitsOf(page)).toEqual(saved);
    // A file of another model size: the lab takes its configuration from the file and loads it.
    await page.selectOption('[data-field="preset"]', 'induction-small');
    await page.waitForFunction(() => window.attentionLab.lab.trainer()?.config.heads === 2);
    await page.setInputFiles('[data-role="load-model"]', file);
    await page.waitForFunction(
      () =>
        window.attentionLab.lab.trainer()?.config.heads === 4 &&
        document.querySelector('.lab-tools [aria-live]:last-child')?.textContent.includes('lab-model.safetensors'),
    );
    expect(await page.$eval('[data-field="heads"]', (i) => i.value)).toBe('4');
    expect(await logitsOf(page)).toEqual(saved);
    expect(problems).toEqual([]);
  });

  it("saves the probe's attentions as a file the explorer's model view opens", async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="lab-save-attentions"]')]);
    const file = path.join(SHOTS, 'lab-attentions.safetensors');
    await download.saveAs(file);
    const { tensors, tokens } = await readTensors(new Uint8Array(fs.readFileSync(file)), { name: 'lab-attentions.safetensors' });
    expect(tensors.attention.shape).toEqual([2, 4, 24, 24]);
    expect(tokens).toHaveLength(24);
    const { page: explorer, problems: explorerProblems } = await site.open('');
    await explorer.setInputFiles('[data-action="import"] input[type="file"]', file);
    await explorer.waitForSelector('[data-role="import-dialog"][open]');
    await explorer.click('[data-action="apply-import"]');
    await explorer.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer="1"][data-head="3"]');
    expect(explorerProblems).toEqual([]);
    await explorer.close();
  });

  it('names a model that cannot be built (heads not dividing d) and builds again once fixed', async () => {
    const { page: bad } = await open('?view=lab');
    await bad.fill('[data-field="heads"]', '3');
    await bad.dispatchEvent('[data-field="heads"]', 'change');
    await bad.waitForSelector('.panel-lab .error-box:not([hidden])');
    expect(await bad.$eval('.panel-lab .error-box', (p) => p.textContent)).toContain('dModel must be a multiple of heads, got dModel = 32, heads = 3');
    await bad.fill('[data-field="heads"]', '2');
    await bad.fill('[data-field="kvHeads"]', '2');
    await bad.dispatchEvent('[data-field="kvHeads"]', 'change');
    await bad.waitForFunction(() => window.attentionLab.lab.trainer()?.config.heads === 2 && document.querySelector('.panel-lab .error-box').hidden);
    await bad.close();
  });

  it('reads in Chinese', async () => {
    const { page: zh, problems: zhProblems } = await open('?view=lab&lang=zh-CN');
    expect(await zh.$eval('.lab-title', (h) => h.textContent)).toBe('训练实验室：看注意力如何学会');
    expect(await zh.$eval('[data-action="lab-train"]', (b) => b.textContent)).toBe('训练');
    await zh.click('[data-action="lab-step"]');
    await zh.waitForSelector('[data-role="status"][data-step="1"]');
    await zh.screenshot({ path: path.join(SHOTS, 'zh-CN.png'), fullPage: true });
    expect(zhProblems).toEqual([]);
  });
});

describe.each(['alibi', 'rope'])("the training lab with positions '%s'", (positions) => {
  it("a clicked head's pipeline has the model's forward trace weights for that head", async () => {
    const { page, problems } = await open('?view=lab');
    await page.selectOption('[data-field="positions"]', positions);
    await page.waitForFunction(
      (p) => window.attentionLab.lab.trainer()?.config.positions === p && document.querySelector('[data-role="status"]')?.dataset.step === '0',
      positions,
    );
    await page.click('[data-action="lab-train"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-role="status"]').dataset.step) >= 30);
    await page.click('[data-action="lab-pause"]');
    await page.waitForSelector('.panel-lab[data-running="false"]');
    for (const [layer, head] of [
      [0, 1],
      [1, 3],
    ]) {
      await page.click(`[data-role="model-view"] canvas[data-layer="${layer}"][data-head="${head}"]`);
      await page.waitForSelector(`[data-role="head-pipeline"][data-layer="${layer}"][data-head="${head}"] svg[data-stage="weights"]`);
      const { shown, trace } = await pipelineAndTrace(page, layer, head);
      expect(shown.length).toBe(16);
      const worst = worstDifference(shown, trace);
      console.log(`lab, ${positions}: layer ${layer} head ${head}'s pipeline weights vs the trace: worst ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(WEIGHTS_TOLERANCE);
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
