// Opening files in the explorer: the Open button ([data-action="import"] with its file input) and
// drag-and-drop read a file into the import dialog; attention weights go to the model view
// ([data-view="heads"]), X and nn.Linear-style weights (transposed) into the pipeline with the
// float64 reference's numbers; bad files and shapes that do not fit say why, in the dialog.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { readTensors, writeSafetensors } from '../../web/io/index.js';
import { selfAttention } from '../reference/matrices.js';
import path from 'node:path';
import { ARTIFACTS, VIEWPORTS, startSite } from '../support/site.js';
import { axeViolations, blocking } from '../support/axe.js';
import { CATALOGS } from '../../web/i18n/index.js';
import { settle, stageValues, worstDifference } from '../support/figures.js';
import { SEED_004 } from '../support/seed-004.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/induction/attention.safetensors', import.meta.url));
const TRUNCATED = fileURLToPath(new URL('../io/fixtures/truncated.npy', import.meta.url));
const FLOAT32 = 1e-6; // float32 sums and exps of numbers below 10
const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

const dialogText = (page) => page.$eval('[data-role="import-message"]', (p) => p.textContent);

/** Opens the trained model's attentions in the dialog (a good file). */
async function openExample(page) {
  await page.setInputFiles('[data-action="import"] input[type="file"]', EXAMPLE);
  await page.waitForSelector('[data-role="import-dialog"][open]');
}

/** Drops the truncated .npy on the page (a file that cannot be read). */
async function dropTruncated(page) {
  const bytes = [...fs.readFileSync(TRUNCATED)];
  await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'truncated.npy'));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  await page.waitForSelector('[data-role="import-dialog"][open]');
}

describe('opening files', () => {
  it("the Open button reads the trained model's attentions into the model view, with the file's tokens", async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await page.setInputFiles('[data-action="import"] input[type="file"]', EXAMPLE);
    await page.waitForSelector('[data-role="import-dialog"][open]');
    const listed = await page.$$eval('[data-role="import-dialog"] tr[data-tensor]', (rows) => rows.map((r) => r.textContent));
    expect(listed).toEqual(['attention(2, 4, 24, 24)float32']);
    expect(await page.$eval('input[name="import-role"]:checked', (i) => i.value)).toBe('weights');
    expect(await page.$eval('[data-field="tokens"]', (i) => i.value)).toBe('a x d o f b m q y z a x d o f b m q y z a x d o');
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer][data-head]');
    const grid = await page.$$eval('[data-view="heads"] canvas[data-layer][data-head]', (c) => c.length);
    expect(grid).toBe(2 * 4 + 4 + 2 * 3);
    expect(problems).toEqual([]);
  });

  it('the Induction model button shows the trained model in the model view: layer 2 attends to the earlier successor', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await page.click('[data-action="example-heads"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer="1"][data-head="0"]');
    // Hover query 15 (the second 'b') of layer 2, head 1: its heaviest key is 6 ('m', which followed the first 'b').
    const box = await page.locator('[data-view="heads"] canvas[data-layer="1"][data-head="0"]').boundingBox();
    const values = [];
    for (let j = 0; j < 24; j++) {
      await page.mouse.move(box.x + ((j + 0.5) / 24) * box.width, box.y + ((15 + 0.5) / 24) * box.height);
      values.push(Number(await page.$eval('[data-view="heads"] [data-role="readout"]', (r) => r.dataset.value)));
    }
    expect(values.indexOf(Math.max(...values))).toBe(15 - 10 + 1);
    expect(problems).toEqual([]);
  });

  it("X with nn.Linear (out, in) weights, transposed in the dialog, gives the reference's weights and the file's tokens", async () => {
    // From 'random' (other numbers, scaled dot product, no mask): the file replaces X and W only.
    const { page, problems } = await site.open('?preset=random');
    // PyTorch layout: nn.Linear(d_in, d).weight is (d, d_in), i.e. W transposed.
    const bytes = writeSafetensors(
      { x: SEED_004.x, 'q_proj.weight': transpose(SEED_004.wq), 'k_proj.weight': transpose(SEED_004.wk), 'v_proj.weight': transpose(SEED_004.wv) },
      { tokens: ['I', 'saw', 'it'] },
    );
    await page.setInputFiles('[data-action="import"] input[type="file"]', {
      name: 'layer.safetensors',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(bytes),
    });
    await page.waitForSelector('[data-role="import-dialog"][open]');
    expect(await page.$eval('input[name="import-role"]:checked', (i) => i.value)).toBe('self');
    // The transposes are ticked for the square weights only if only the transpose fits: seed-004's are 2 x 2, so
    // both fit; untick nothing, tick all three (the file is in PyTorch's layout).
    for (const key of ['wq', 'wk', 'wv']) await page.check(`input[data-transpose="${key}"]`);
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-role="import-dialog"]:not([open])', { state: 'attached' });
    await settle(page);
    const weights = (await stageValues(page, 'weights'))[0];
    expect(worstDifference(weights, selfAttention(SEED_004).weights).diff).toBeLessThan(FLOAT32);
    expect(await page.evaluate(() => window.attentionLab.store.get().tokens)).toEqual(['I', 'saw', 'it']);
    expect(problems).toEqual([]);
  });

  it('tokens holding a space (["New York", "is", "big"]) reach the state as they are, and an edited JSON list too', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const bytes = writeSafetensors({ x: SEED_004.x, wq: SEED_004.wq, wk: SEED_004.wk, wv: SEED_004.wv }, { tokens: ['New York', 'is', 'big'] });
    const openFile = async () => {
      await page.setInputFiles('[data-action="import"] input[type="file"]', {
        name: 'city.safetensors',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(bytes),
      });
      await page.waitForSelector('[data-role="import-dialog"][open]');
    };
    const apply = async () => {
      await page.click('[data-action="apply-import"]');
      await page.waitForSelector('[data-role="import-dialog"]:not([open])', { state: 'attached' });
    };
    await openFile();
    // Joined by spaces, 'New York is big' would read back as four tokens for three rows.
    expect(await page.$eval('[data-field="tokens"]', (i) => i.value)).toBe('["New York","is","big"]');
    await apply();
    expect(await page.evaluate(() => window.attentionLab.store.get().tokens)).toEqual(['New York', 'is', 'big']);
    await openFile();
    await page.fill('[data-field="tokens"]', '["San Francisco", "is", "far"]');
    await apply();
    expect(await page.evaluate(() => window.attentionLab.store.get().tokens)).toEqual(['San Francisco', 'is', 'far']);
    await openFile();
    await page.fill('[data-field="tokens"]', '["San Francisco", 3]');
    await page.click('[data-action="apply-import"]');
    expect(await dialogText(page)).toBe('tokens: a JSON list must hold strings only, like ["New York", "is", "big"]');
    expect(problems).toEqual([]);
  });

  it('a rectangular nn.Linear weight is transposed by default and refused untransposed, naming the role', async () => {
    const { page } = await site.open('?preset=seed-004');
    const x = [
      [1, 2, 0],
      [0, 1, 1],
    ]; // T = 2, d_in = 3
    const w = [
      [1, 0, 1],
      [0, 1, 0],
    ]; // nn.Linear(3, 2).weight: (2, 3)
    await page.setInputFiles('[data-action="import"] input[type="file"]', {
      name: 'rect.safetensors',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(writeSafetensors({ x, wq: w, wk: w, wv: w })),
    });
    await page.waitForSelector('[data-role="import-dialog"][open]');
    expect(await page.$eval('input[data-transpose="wq"]', (i) => i.checked)).toBe(true);
    await page.uncheck('input[data-transpose="wq"]');
    await page.click('[data-action="apply-import"]');
    expect(await dialogText(page)).toBe(
      'Wq: (2, 3) does not fit X (2, 3): expected (3, d) or (H, 3, d) (PyTorch nn.Linear weights are (out, in): tick transpose)',
    );
    await page.check('input[data-transpose="wq"]');
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-role="import-dialog"]:not([open])', { state: 'attached' });
    await settle(page);
    const q = (await stageValues(page, 'q'))[0];
    expect(q).toEqual([
      [1, 2],
      [1, 1],
    ]); // X W with W = w transposed
  });

  it("a dropped bad file shows the reader's message in the dialog and changes nothing", async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const before = await stageValues(page, 'weights');
    await dropTruncated(page);
    expect(await dialogText(page)).toBe('readTensors(truncated.npy): shape [3, 4] of float32 needs 48 bytes of data, the file has 45 (truncated)');
    expect(await stageValues(page, 'weights')).toEqual(before);
    // Shown as an error: an alert in the error colour, Apply off, choosing another file the main (focused) action.
    const shown = await page.evaluate(() => {
      const message = document.querySelector('[data-role="import-message"]');
      const ink = getComputedStyle(document.documentElement).getPropertyValue('--bad');
      const probe = document.body.appendChild(document.createElement('span'));
      probe.style.color = 'var(--bad)';
      const bad = getComputedStyle(probe).color;
      probe.remove();
      return {
        role: message.getAttribute('role'),
        colour: getComputedStyle(message).color,
        bad,
        ink: ink !== '',
        applyDisabled: document.querySelector('[data-action="apply-import"]').disabled,
        main: document.querySelector('.import-actions .button-primary')?.dataset.action,
        focused: document.activeElement?.dataset.action,
      };
    });
    expect(shown).toEqual({ role: 'alert', colour: shown.bad, bad: shown.bad, ink: true, applyDisabled: true, main: 'choose-file', focused: 'choose-file' });
    // Choosing another file opens the file chooser; a good file after the bad one: Apply is back as the main action, the error gone.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-action="choose-file"]')]);
    await chooser.setFiles(EXAMPLE);
    await page.waitForSelector('[data-role="import-dialog"] tr[data-tensor="attention"]');
    expect(await page.$eval('[data-action="apply-import"]', (b) => [b.disabled, b.className])).toEqual([false, 'button-primary']);
    expect(await page.$eval('[data-role="import-message"]', (m) => m.hidden)).toBe(true);
    expect(problems).toEqual([]);
  });
});

describe('the import dialog and the model view', () => {
  it("lists the file's tensors in a table with column headers and offers the roles as a radio group, one option per line with its hint", async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await openExample(page);
    const form = await page.evaluate(() => {
      const dialog = document.querySelector('[data-role="import-dialog"]');
      const roles = [...dialog.querySelectorAll('fieldset .import-role')];
      return {
        headers: [...dialog.querySelectorAll('table thead th[scope="col"]')].map((th) => th.textContent),
        rowHeader: dialog.querySelector('table tbody tr th[scope="row"]')?.textContent,
        legend: dialog.querySelector('fieldset > legend')?.textContent,
        radios: roles.map((r) => r.querySelector('input[type="radio"]').value),
        hints: roles.map((r) => r.querySelector('.import-role-hint')?.textContent.length > 0),
        tops: roles.map((r) => Math.round(r.getBoundingClientRect().top)),
        heights: roles.map((r) => r.getBoundingClientRect().height),
      };
    });
    expect(form.headers).toEqual(['Tensor', 'Shape', 'Type']);
    expect(form.rowHeader).toBe('attention');
    expect(form.legend).toBe('The file holds');
    expect(form.radios).toEqual(['weights', 'self', 'qkv']);
    expect(form.hints).toEqual([true, true, true]);
    // One line each: every option starts below the bottom of the one before.
    for (let k = 1; k < 3; k++) expect(form.tops[k]).toBeGreaterThanOrEqual(form.tops[k - 1] + form.heights[k - 1] - 1);
    expect(problems).toEqual([]);
  });

  it('at 390 px every field of the dialog stays inside the dialog and the screen', async () => {
    const { page, problems } = await site.open('?preset=seed-004', { viewport: VIEWPORTS.phone });
    await openExample(page);
    const overflow = await page.evaluate(() => {
      const dialog = document.querySelector('[data-role="import-dialog"]');
      const box = dialog.getBoundingClientRect();
      const right = Math.min(box.right, window.innerWidth);
      return [...dialog.querySelectorAll('input:not([type="radio"]):not([type="checkbox"]), select, button, table')]
        .map((e) => ({ what: e.dataset.field ?? e.dataset.action ?? e.tagName, right: e.getBoundingClientRect().right }))
        .filter((e) => e.right > right + 0.5);
    });
    expect(overflow).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("after Apply the focus is on what Apply drew: the model view's heading, or the pipeline", async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await openExample(page);
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer][data-head]');
    await page.waitForFunction(() => document.activeElement?.classList.contains('model-view-title'));
    const bytes = writeSafetensors({ x: SEED_004.x, wq: SEED_004.wq, wk: SEED_004.wk, wv: SEED_004.wv });
    await page.setInputFiles('[data-action="import"] input[type="file"]', {
      name: 'layer.safetensors',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(bytes),
    });
    await page.waitForSelector('[data-role="import-dialog"][open]');
    await page.click('[data-action="apply-import"]');
    await page.waitForFunction(() => document.activeElement?.classList.contains('panel-views'));
    expect(problems).toEqual([]);
  });

  it("the model view takes the example's place with a headline naming the file, and a preset brings the example back", async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const visible = () =>
      page.evaluate(() => ({
        pipeline: document.querySelector('.panel-views').getClientRects().length > 0,
        lede: document.querySelector('.intro-lede').getClientRects().length > 0,
        modelView: !document.querySelector('[data-view="heads"]').hidden,
      }));
    expect(await visible()).toEqual({ pipeline: true, lede: true, modelView: false });
    await openExample(page);
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer][data-head]');
    expect(await visible()).toEqual({ pipeline: false, lede: false, modelView: true });
    expect(await page.$eval('[data-view="heads"] h2', (h2) => h2.textContent)).toBe('Model view: attention.safetensors');
    // The file replaced the preset: no preset button is marked current, and the group keeps one Tab stop.
    const marked = () =>
      page.$$eval('.masthead-presets .seg', (buttons) => ({
        current: buttons.filter((b) => b.getAttribute('aria-checked') === 'true').map((b) => b.dataset.value),
        tabStops: buttons.filter((b) => b.tabIndex === 0).length,
      }));
    expect(await marked()).toEqual({ current: [], tabStops: 1 });
    // The same preset again: the example comes back in place of the model view.
    await page.click('.masthead-presets [data-value="seed-004"]');
    await page.waitForFunction(() => document.querySelector('[data-view="heads"]').hidden);
    expect(await visible()).toEqual({ pipeline: true, lede: true, modelView: false });
    expect(await marked()).toEqual({ current: ['seed-004'], tabStops: 1 });
    expect(problems).toEqual([]);
  });

  it('each thumbnail pixel has the colour of the SVG cell of the same weight, in light and in dark', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await openExample(page);
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer="1"][data-head="2"]');
    await page.click('[data-view="heads"] canvas[data-layer="1"][data-head="2"]'); // enlarged: SVG cells of the same weights
    await page.waitForSelector('[data-role=detail] svg [data-row][data-col]');
    const worst = () =>
      page.evaluate(() => {
        const swatch = document.createElement('canvas').getContext('2d');
        const rgb = (css) => {
          swatch.clearRect(0, 0, 1, 1);
          swatch.fillStyle = css;
          swatch.fillRect(0, 0, 1, 1);
          return [...swatch.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        const canvas = document.querySelector('[data-view="heads"] canvas[data-layer="1"][data-head="2"]');
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let max = 0;
        let where = null;
        for (const cell of document.querySelectorAll('[data-role=detail] svg [data-row][data-col]')) {
          const [i, j] = [Number(cell.dataset.row), Number(cell.dataset.col)];
          const svg = rgb(getComputedStyle(cell.querySelector('.tile') ?? cell).fill);
          const p = 4 * (i * canvas.width + j);
          const diff = Math.max(...svg.map((c, k) => Math.abs(c - pixels[p + k])));
          if (diff > max) {
            max = diff;
            where = { i, j, svg, canvas: [...pixels.slice(p, p + 3)] };
          }
        }
        return { max, where, paper: [...pixels.slice(4, 7)] }; // weight (0, 1): 0, the paper
      });
    const light = await worst();
    // Canvas bytes against the browser's own color-mix: 1/255 steps of t and rounding, at most 2 levels.
    expect(light.max, JSON.stringify(light.where)).toBeLessThanOrEqual(2);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(
      () => document.querySelector('[data-view="heads"] canvas[data-layer="1"][data-head="2"]').getContext('2d').getImageData(1, 0, 1, 1).data[0] < 128,
    ); // weight (0, 1) is 0 (causal): paper
    const dark = await worst();
    expect(dark.max, JSON.stringify(dark.where)).toBeLessThanOrEqual(2);
    expect(Math.max(...dark.paper)).toBeLessThan(128); // a dark thumbnail, not white
    expect(problems).toEqual([]);
  });

  it('every message of the dialog and the model view exists in English and Chinese', () => {
    const keys = (lang) => Object.keys(CATALOGS[lang]).filter((key) => key.startsWith('import.'));
    expect(keys('en').length).toBeGreaterThan(30);
    expect(keys('zh-CN').sort()).toEqual(keys('en').sort());
  });

  it('on a zh-CN page the dialog and the model view speak Chinese', async () => {
    // ?lang=zh-CN loads the Chinese words (setting <html lang> alone would not: the model view's
    // figure then refuses a language still to load).
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN');
    await openExample(page);
    const words = await page.evaluate(() => ({
      legend: document.querySelector('[data-role="import-dialog"] legend').textContent,
      roles: [...document.querySelectorAll('.import-role-name')].map((r) => r.textContent),
      apply: document.querySelector('[data-action="apply-import"]').textContent,
    }));
    expect(words).toEqual({ legend: '文件内容是', roles: ['注意力权重', 'X、Wq、Wk、Wv', '查询 Q、键 K、值 V'], apply: '应用' });
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer][data-head]');
    expect(await page.$eval('[data-view="heads"] h2', (h2) => h2.textContent)).toBe('模型视图：attention.safetensors');
    expect(problems).toEqual([]);
  });

  // One test per width and theme: all four in one test took 27 s alone, up to 60 (the time limit)
  // with another file beside it on a busy machine.
  it.each([
    ['1280', 'light'],
    ['1280', 'dark'],
    ['390', 'light'],
    ['390', 'dark'],
  ])('the dialog (good and bad file) and the model view pass axe-core, with screenshots, at %s px in %s', async (width, colorScheme) => {
    const viewport = width === '390' ? VIEWPORTS.phone : VIEWPORTS.desktop;
    const { page, problems } = await site.open('?preset=seed-004', { viewport, colorScheme });
    const shot = async (name) => {
      expect(blocking(await axeViolations(page)), `${name} ${width} ${colorScheme}`).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `import-${name}-${width}-${colorScheme}.png`), fullPage: name === 'model-view' });
    };
    await openExample(page);
    await shot('dialog');
    await page.keyboard.press('Escape');
    await dropTruncated(page);
    await shot('dialog-error');
    await openExample(page);
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer][data-head]');
    await shot('model-view');
    expect(problems, `${width} ${colorScheme}`).toEqual([]);
  });
});

describe('saving stages as tensor files', () => {
  /** Runs a figure menu action of a card and returns the downloaded file: { name, bytes }. */
  async function exportFrom(page, card, action) {
    const menu = page.locator(`[data-card="${card}"] details.figure-menu`);
    await menu.locator('summary').click();
    const [download] = await Promise.all([page.waitForEvent('download'), menu.locator(`[data-action="${action}"]`).first().click()]);
    return { name: download.suggestedFilename(), bytes: new Uint8Array(fs.readFileSync(await download.path())) };
  }

  it('a stage saved as .npy and .safetensors reads back with the exact float32 values shown, and the tokens', async () => {
    const { page, problems } = await site.open('?preset=sentence');
    const shown = (await stageValues(page, 'weights'))[0];
    const npy = await exportFrom(page, 'weights', 'npy');
    expect(npy.name).toMatch(/\.npy$/);
    const fromNpy = Object.values((await readTensors(npy.bytes, { name: npy.name })).tensors)[0];
    const st = await exportFrom(page, 'weights', 'safetensors');
    const fromSt = await readTensors(st.bytes, { name: st.name });
    const tensor = Object.values(fromSt.tensors)[0];
    for (const t of [fromNpy, tensor]) {
      const rows = t.shape.at(-2);
      const cols = t.shape.at(-1);
      const first = Array.from({ length: rows }, (_, i) => Array.from(t.data.subarray(i * cols, (i + 1) * cols)));
      expect(first).toEqual(shown);
    }
    expect(fromSt.tokens).toEqual(await page.evaluate(() => window.attentionLab.store.get().tokens));
    expect(problems).toEqual([]);
  });
});
