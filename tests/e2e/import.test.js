// Opening files in the explorer: the Open button ([data-action="import"] with its file input) and
// drag-and-drop read a file into the import dialog; attention weights go to the model view
// ([data-view="heads"]), X and nn.Linear-style weights (transposed) into the pipeline with the
// float64 reference's numbers; bad files and shapes that do not fit say why, in the dialog.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { readTensors, writeSafetensors } from '../../web/io/index.js';
import { selfAttention } from '../reference/matrices.js';
import { startSite } from '../support/site.js';
import { settle, stageValues, worstDifference } from '../support/figures.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/induction/attention.safetensors', import.meta.url));
const TRUNCATED = fileURLToPath(new URL('../io/fixtures/truncated.npy', import.meta.url));
const SEED_004 = { x: [[1, 2], [0, 1], [3, 1]], wq: [[1, 0], [0, 1]], wk: [[1, 1], [0, 1]], wv: [[1, 0], [1, 1]] };
const FLOAT32 = 1e-6; // float32 sums and exps of numbers below 10
const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

let site;
beforeAll(async () => { site = await startSite(); });
afterAll(async () => { await site?.close(); });

const dialogText = (page) => page.$eval('[data-role="import-message"]', (p) => p.textContent);

describe('opening files', () => {
  it('the Open button reads the trained model\'s attentions into the model view, with the file\'s tokens', async () => {
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

  it('X with nn.Linear (out, in) weights, transposed in the dialog, gives the reference\'s weights and the file\'s tokens', async () => {
    // From 'random' (other numbers, scaled dot product, no mask): the file replaces X and W only.
    const { page, problems } = await site.open('?preset=random');
    // PyTorch layout: nn.Linear(d_in, d).weight is (d, d_in), i.e. W transposed.
    const bytes = writeSafetensors({ x: SEED_004.x, 'q_proj.weight': transpose(SEED_004.wq), 'k_proj.weight': transpose(SEED_004.wk), 'v_proj.weight': transpose(SEED_004.wv) }, { tokens: ['I', 'saw', 'it'] });
    await page.setInputFiles('[data-action="import"] input[type="file"]', { name: 'layer.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
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
      await page.setInputFiles('[data-action="import"] input[type="file"]', { name: 'city.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
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
    const x = [[1, 2, 0], [0, 1, 1]]; // T = 2, d_in = 3
    const w = [[1, 0, 1], [0, 1, 0]]; // nn.Linear(3, 2).weight: (2, 3)
    await page.setInputFiles('[data-action="import"] input[type="file"]', { name: 'rect.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from(writeSafetensors({ x, wq: w, wk: w, wv: w })) });
    await page.waitForSelector('[data-role="import-dialog"][open]');
    expect(await page.$eval('input[data-transpose="wq"]', (i) => i.checked)).toBe(true);
    await page.uncheck('input[data-transpose="wq"]');
    await page.click('[data-action="apply-import"]');
    expect(await dialogText(page)).toBe('Wq: (2, 3) does not fit X (2, 3): expected (3, d) or (H, 3, d) (PyTorch nn.Linear weights are (out, in): tick transpose)');
    await page.check('input[data-transpose="wq"]');
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-role="import-dialog"]:not([open])', { state: 'attached' });
    await settle(page);
    const q = (await stageValues(page, 'q'))[0];
    expect(q).toEqual([[1, 2], [1, 1]]); // X W with W = w transposed
  });

  it('a dropped bad file shows the reader\'s message in the dialog and changes nothing', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const before = await stageValues(page, 'weights');
    const bytes = [...(await import('node:fs')).readFileSync(TRUNCATED)];
    await page.evaluate((data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'truncated.npy'));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    await page.waitForSelector('[data-role="import-dialog"][open]');
    expect(await dialogText(page)).toBe('readTensors(truncated.npy): shape [3, 4] of float32 needs 48 bytes of data, the file has 45 (truncated)');
    expect(await stageValues(page, 'weights')).toEqual(before);
    expect(problems).toEqual([]);
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
