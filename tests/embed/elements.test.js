// <attn-figure> and <attn-heatmap> in real Chromium, loaded from the raw sources by a plain page
// (no bundler, no import map): exact numbers, attributes, one wasm module per page, shadow DOM
// isolation both ways, lazy loading, exports, keyboard access, and no console errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alibiBias, attention, rotate, selfAttention } from '../reference/matrices.js';
import { elementsPage, rendered, startPages, wasmRequests } from '../support/pages.js';
import { settle, shadowStageValues, worstDifference } from '../support/figures.js';
import { SEED_004 } from '../support/seed-004.js';

// float32 storage of a handful of sums and exps of numbers below 10: far below 1e-6.
const FLOAT32 = 1e-6;

/** The error messages of the elements `ids` (selectors), once every one of them shows one in its shadow root. */
const errorMessages = (page, ids) =>
  page
    .waitForFunction((list) => {
      const texts = list.map((id) => document.querySelector(id).shadowRoot.querySelector('.status.error')?.textContent);
      return texts.every(Boolean) && texts;
    }, ids)
    .then((handle) => handle.jsonValue());

let pages;
beforeAll(async () => {
  pages = await startPages();
});
afterAll(async () => {
  await pages?.close();
});

/** Writes `body` as a page, opens it and waits for the elements named in `selectors` to render. */
async function show(name, body, selectors = [], options = {}) {
  await pages.write(name, elementsPage(body, options));
  const opened = await pages.open(name, options);
  for (const selector of selectors) await rendered(opened.page, selector);
  return opened;
}

describe('<attn-figure>', () => {
  it('preset="seed-004" shows the exact weights and output of the float64 reference', async () => {
    const { page, problems } = await show('seed-004.html', '<attn-figure id="f" preset="seed-004"></attn-figure>', ['#f']);
    const exact = selfAttention(SEED_004);
    const weights = (await shadowStageValues(page, '#f', 'weights'))[0];
    const output = (await shadowStageValues(page, '#f', 'output'))[0];
    expect(worstDifference(weights, exact.weights).diff).toBeLessThan(FLOAT32);
    expect(worstDifference(output, exact.output).diff).toBeLessThan(4 * FLOAT32);
    // The whole forward pass by default, in the explorer's stage names.
    const stages = await page.evaluate(() => [...document.querySelector('#f').shadowRoot.querySelectorAll('svg[data-stage]')].map((s) => s.dataset.stage));
    expect(stages).toEqual(['x', 'wq', 'wk', 'wv', 'q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output']);
    expect(problems).toEqual([]);
  });

  it('stages, causal, scoring, valid-lens, heads, view and backward attributes change the figure', async () => {
    const { page, problems } = await show('attributes.html', '<attn-figure id="f" preset="seed-004" stages="weights output"></attn-figure>', ['#f']);
    const stagesShown = () => page.evaluate(() => [...document.querySelector('#f').shadowRoot.querySelectorAll('svg[data-stage]')].map((s) => s.dataset.stage));
    const set = async (name, value) => {
      const before = await page.evaluateHandle(() => document.querySelector('#f').shadowRoot.querySelector('.body').firstChild); // a handle: evaluate() would serialize the node to {}
      await page.evaluate(
        ([n, v]) => (v === null ? document.querySelector('#f').removeAttribute(n) : document.querySelector('#f').setAttribute(n, v)),
        [name, value],
      );
      await page.waitForFunction((old) => document.querySelector('#f').shadowRoot.querySelector('.body').firstChild !== old, before);
    };
    expect(await stagesShown()).toEqual(['weights', 'output']);

    await set('causal', '');
    const q = selfAttention(SEED_004).q;
    const { k, v } = selfAttention(SEED_004);
    expect(worstDifference((await shadowStageValues(page, '#f', 'weights'))[0], attention(q, k, v, { causal: 'top-left' }).weights).diff).toBeLessThan(FLOAT32);

    await set('scoring', 'dot'); // unscaled: scale 1
    expect(
      worstDifference((await shadowStageValues(page, '#f', 'weights'))[0], attention(q, k, v, { causal: 'top-left', scale: 1 }).weights).diff,
    ).toBeLessThan(FLOAT32);

    await set('causal', null);
    await set('valid-lens', '[[1, 2, 3]]'); // per query row: row i sees keys < i + 1, as the causal mask
    expect(
      worstDifference((await shadowStageValues(page, '#f', 'weights'))[0], attention(q, k, v, { causal: 'top-left', scale: 1 }).weights).diff,
    ).toBeLessThan(FLOAT32);

    await set('view', 'heatmap');
    await set('heads', '2');
    const heatmaps = await page.evaluate(() => [...document.querySelector('#f').shadowRoot.querySelectorAll('svg.attn-heatmap')].map((s) => s.dataset.head));
    expect(heatmaps).toEqual(['0', '1']);

    await set('view', 'matrix');
    await set('backward', '');
    // Two heads bring W^O: the loss is on the layer's output, so dY (d-projected) and dW^O join.
    expect(await stagesShown()).toEqual([
      'weights',
      'output',
      'target',
      'd-projected',
      'd-output',
      'd-weights',
      'd-scores',
      'dq',
      'dk',
      'dv',
      'dwq',
      'dwk',
      'dwv',
      'dwo',
    ]);
    expect(problems).toEqual([]);
  });

  it('takes inline data from a child <script type="application/json"> and from a data attribute', async () => {
    const data = {
      x: [
        [1, 0],
        [0, 1],
      ],
      wq: [
        [
          [1, 0],
          [0, 1],
        ],
      ],
      wk: [
        [
          [2, 0],
          [0, 2],
        ],
      ],
      wv: [
        [
          [1, 2],
          [3, 4],
        ],
      ],
      tokens: ['I', 'am'],
    };
    const { page, problems } = await show(
      'inline.html',
      `
      <attn-figure id="child" stages="weights"><script type="application/json">${JSON.stringify(data)}</script></attn-figure>
      <attn-figure id="attr" stages="weights" data='${JSON.stringify(data)}'></attn-figure>`,
      ['#child', '#attr'],
    );
    const exact = selfAttention({ x: data.x, wq: data.wq[0], wk: data.wk[0], wv: data.wv[0] });
    for (const id of ['#child', '#attr']) {
      expect(worstDifference((await shadowStageValues(page, id, 'weights'))[0], exact.weights).diff, id).toBeLessThan(FLOAT32);
    }
    const labels = await page.evaluate(() => [...document.querySelector('#child').shadowRoot.querySelectorAll('.attn-axis')].map((t) => t.textContent));
    expect(labels).toEqual(expect.arrayContaining(['I', 'am']));
    expect(problems).toEqual([]);
  });

  it('draws 2-D weights in data as one head, and names an unknown key, a wrong shape or a non-number instead of drawing other numbers', async () => {
    // The README's Node example passes 2-D weights to the API's layers; the same data in a figure.
    const data = SEED_004;
    const bad = [
      ['unknown', { ...data, Wq: data.wq }],
      [
        'shape',
        {
          ...data,
          wk: [
            [1, 1, 0],
            [0, 1, 0],
          ],
        },
      ],
      [
        'value',
        {
          ...data,
          wv: [
            [1, 0],
            [1, 'one'],
          ],
        },
      ],
    ];
    const { page, problems } = await show(
      'given-data.html',
      `
      <attn-figure id="ok" stages="scores"><script type="application/json">${JSON.stringify(data)}</script></attn-figure>
      ${bad.map(([id, d]) => `<attn-figure id="${id}" stages="scores"><script type="application/json">${JSON.stringify(d)}</script></attn-figure>`).join('\n')}`,
      ['#ok'],
    );
    expect((await shadowStageValues(page, '#ok', 'scores'))[0]).toEqual([
      [7, 2, 11],
      [3, 1, 4],
      [6, 1, 13],
    ]);
    const messages = await errorMessages(page, ['#unknown', '#shape', '#value']);
    expect(messages[0]).toMatch(/unknown key 'Wq' \(did you mean 'wq'\?\)/);
    expect(messages[1]).toMatch(/wk has shape \(1, 2, 3\) but this example needs \(1, 2, 2\) \(H, d_in, d_q\)/);
    expect(messages[2]).toMatch(/wv\[0\]\[1\]\[1\] must be a finite number, got "one"/);
    // None of them drew a figure with numbers of its own.
    const drawn = await page.evaluate(() =>
      ['#unknown', '#shape', '#value'].map((id) => document.querySelector(id).shadowRoot.querySelectorAll('svg[data-stage]').length),
    );
    expect(drawn).toEqual([0, 0, 0]);
    expect(problems).toEqual([]);
  });

  it('shows a wrong attribute as a message naming it, with no console error', async () => {
    const { page, problems } = await show(
      'errors.html',
      `
      <attn-figure id="a" preset="seed-005"></attn-figure>
      <attn-figure id="b" preset="seed-004" stages="weights softmax"></attn-figure>
      <attn-figure id="c" preset="d2l" valid-lens="2 6 1"></attn-figure>`,
    );
    const messages = await errorMessages(page, ['#a', '#b', '#c']);
    expect(messages[0]).toMatch(/preset must be one of 'seed-004'.*got "seed-005"/);
    expect(messages[1]).toMatch(/unknown stage "softmax"/);
    expect(messages[2]).toMatch(/validLens must have B=2 entries/);
    expect(problems).toEqual([]);
  });

  it('window, alibi, rope and kv-heads attributes change the figure as the float64 reference does', async () => {
    const { page, problems } = await show(
      'positions.html',
      `
      <attn-figure id="w" preset="seed-004" stages="weights" window="1 0"></attn-figure>
      <attn-figure id="a" preset="seed-004" stages="alibi weights" alibi></attn-figure>
      <attn-figure id="r" preset="seed-004" stages="rope weights" rope='{"base": 10, "interleaved": true}'></attn-figure>`,
      ['#w', '#a', '#r'],
    );
    const weights = async (id) => (await shadowStageValues(page, id, 'weights'))[0];
    expect(worstDifference(await weights('#w'), selfAttention(SEED_004, { window: [1, 0] }).weights).diff).toBeLessThan(FLOAT32);
    // One head: the paper's slope for H = 1 is 2^-8; the bias is exact in float32.
    expect((await shadowStageValues(page, '#a', 'alibi'))[0]).toEqual(alibiBias(3, 3, 2 ** -8).map((row) => row.map((b) => b + 0)));
    expect(worstDifference(await weights('#a'), selfAttention(SEED_004, { slope: 2 ** -8 }).weights).diff).toBeLessThan(FLOAT32);
    const rope = { base: 10, interleaved: true };
    const rotated = await page.evaluate(() =>
      [...document.querySelector('#r').shadowRoot.querySelectorAll('svg[data-stage="rope"]')].map((s) => s.dataset.part),
    );
    expect(rotated).toEqual(['q', 'q-rotated', 'k', 'k-rotated']);
    // float32 cos and sin of angles up to 2 rad: within 2e-6 of float64.
    expect(worstDifference(await weights('#r'), selfAttention({ ...SEED_004, rope }).weights).diff).toBeLessThan(2e-6);
    expect(rotate([[1, 2]], rope)).toEqual([[1, 2]]); // position 0 does not turn
    // kv-heads="1" with 2 heads: head 2 keeps its Wq and attends with head 1's Wk and Wv.
    await page.evaluate(() => {
      document.querySelector('#w').setAttribute('heads', '2');
      document.querySelector('#w').setAttribute('kv-heads', '1');
      document.querySelector('#w').setAttribute('head', '1');
    });
    await page.waitForFunction(
      () =>
        document.querySelector('#w').state?.kvHeads === 1 && document.querySelector('#w').shadowRoot.querySelector('svg[data-stage="weights"][data-head="1"]'),
    );
    const state = await page.evaluate(() => document.querySelector('#w').state);
    expect(state.wk[1]).toEqual(state.wk[0]);
    const grouped = selfAttention({ x: state.x, wq: state.wq[1], wk: state.wk[0], wv: state.wv[0] }, { window: [1, 0] });
    expect(worstDifference((await shadowStageValues(page, '#w', 'weights'))[0], grouped.weights).diff).toBeLessThan(4 * FLOAT32);
    expect(problems).toEqual([]);
  });

  it('a wrong window, alibi, rope or kv-heads attribute shows a message naming it', async () => {
    const { page, problems } = await show(
      'position-errors.html',
      `
      <attn-figure id="a" preset="seed-004" window="2"></attn-figure>
      <attn-figure id="b" preset="seed-004" window="-2 0"></attn-figure>
      <attn-figure id="c" preset="seed-004" alibi="yes"></attn-figure>
      <attn-figure id="d" preset="seed-004" rope="sideways"></attn-figure>
      <attn-figure id="e" preset="d2l" rope></attn-figure>
      <attn-figure id="f" preset="seed-004" rope='{"base": -1}'></attn-figure>
      <attn-figure id="g" preset="sentence" kv-heads="3"></attn-figure>`,
    );
    const messages = await errorMessages(page, ['#a', '#b', '#c', '#d', '#e', '#f', '#g']);
    expect(messages[0]).toMatch(/window: expected two integers >= -1/);
    expect(messages[1]).toMatch(/window: expected two integers >= -1/);
    expect(messages[2]).toMatch(/alibi: expected present, "paper", "off" or one slope per head like "0.5 0.25", got "yes"/);
    expect(messages[3]).toMatch(/rope: expected present, "halves", "interleaved"/);
    expect(messages[4]).toMatch(/rope needs an example with X and an even query width, got given Q, K, V/);
    expect(messages[5]).toMatch(/rope.base must be a number in \[1, 1000000\], got -1/);
    expect(messages[6]).toMatch(/kvHeads must be a divisor of the number of heads H=2, got 3/);
    expect(problems).toEqual([]);
  });

  it('alibi="0.5 0.25" gives head h the h-th slope of the list: its bias and weights are the float64 reference’s', async () => {
    const { page, problems } = await show(
      'alibi-slopes.html',
      `
      <attn-figure id="h0" preset="seed-004" heads="2" stages="alibi weights" alibi="0.5 0.25"></attn-figure>
      <attn-figure id="h1" preset="seed-004" heads="2" head="1" stages="alibi weights" alibi="0.5, 0.25"></attn-figure>`,
      ['#h0', '#h1'],
    );
    // The paper's slopes for two heads are 1/16 and 1/256: these differ from them, and from each other.
    for (const [id, h, slope] of [
      ['#h0', 0, 0.5],
      ['#h1', 1, 0.25],
    ]) {
      const state = await page.evaluate((selector) => document.querySelector(selector).state, id);
      expect(state.alibi).toEqual([0.5, 0.25]);
      // A slope times a small integer: exact in float32.
      expect((await shadowStageValues(page, id, 'alibi'))[0], id).toEqual(alibiBias(3, 3, slope).map((row) => row.map((b) => b + 0)));
      // Head 2's seeded weights (two decimals) go through float32 projections first: 4 roundings.
      const exact = selfAttention({ x: state.x, wq: state.wq[h], wk: state.wk[h], wv: state.wv[h] }, { slope });
      expect(worstDifference((await shadowStageValues(page, id, 'weights'))[0], exact.weights).diff, id).toBeLessThan(4 * FLOAT32);
    }
    expect(problems).toEqual([]);
  });

  it('a list of slopes that is not numbers, of the wrong length or not > 0 shows a message naming alibi', async () => {
    const { page, problems } = await show(
      'alibi-slope-errors.html',
      `
      <attn-figure id="a" preset="seed-004" alibi="0.5 0.25"></attn-figure>
      <attn-figure id="b" preset="seed-004" heads="2" alibi="0.5 x"></attn-figure>
      <attn-figure id="c" preset="seed-004" heads="2" alibi="0.5 -1"></attn-figure>
      <attn-figure id="d" preset="seed-004" heads="2" alibi="0.5 1e39"></attn-figure>`,
    );
    const messages = await errorMessages(page, ['#a', '#b', '#c', '#d']);
    expect(messages[0]).toMatch(/alibi must hold one slope per head, H=1, got 2/);
    expect(messages[1]).toMatch(/alibi: expected present, "paper", "off" or one slope per head like "0.5 0.25", got "0.5 x"/);
    expect(messages[2]).toMatch(/alibi\[1\] must be a finite number > 0 \(and finite as float32\), got -1/);
    expect(messages[3]).toMatch(/alibi\[1\] must be a finite number > 0 \(and finite as float32\), got 1e\+39/);
    expect(problems).toEqual([]);
  });

  it('several figures on a page share one wasm module (one .wasm download)', async () => {
    const { page, problems, requests } = await show(
      'shared.html',
      `
      <attn-figure id="a" preset="seed-004" stages="weights"></attn-figure>
      <attn-figure id="b" preset="d2l" view="heatmap"></attn-figure>
      <attn-figure id="c" preset="sentence" view="links"></attn-figure>`,
      ['#a', '#b', '#c'],
    );
    expect(wasmRequests(requests)).toHaveLength(1);
    // The SIMD build, though Chromium validates relaxed SIMD (loadAttention()'s default there): a
    // figure shows the same numbers on every machine.
    expect(
      requests.filter((url) => /attention-(simd|relaxed|scalar)\.js$/.test(new URL(url).pathname)).map((url) => new URL(url).pathname.split('/').pop()),
    ).toEqual(['attention-simd.js']);
    expect(wasmRequests(requests).map((url) => new URL(url).pathname.split('/').pop())).toEqual(['attention-simd.wasm']);
    // And one instance: every figure computed with the same backend, from one loadAttention().
    expect(await page.evaluate(() => document.querySelectorAll('attn-figure').length)).toBe(3);
    expect(problems).toEqual([]);
  });

  it('loads no wasm until the figure nears the viewport', async () => {
    const { page, problems, requests } = await show(
      'lazy.html',
      `
      <div style="height: 5000px">A long post.</div>
      <attn-figure id="f" preset="seed-004" stages="weights"></attn-figure>`,
    );
    await page.waitForTimeout(800); // time enough for any eager download to start
    expect(wasmRequests(requests)).toEqual([]);
    expect(await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('svg'))).toBeNull();
    await page.evaluate(() => window.scrollTo(0, 5000 - window.innerHeight - 200)); // within the 400 px margin
    await rendered(page, '#f', 'weights');
    expect(wasmRequests(requests)).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('editable: Enter on a cell of X opens a field, a typed number recomputes Q and the weights', async () => {
    const { page, problems } = await show('editable.html', '<attn-figure id="f" preset="seed-004" stages="x q weights" editable></attn-figure>', ['#f']);
    // Keyboard only: Tab reaches the first cell of X (roving tabindex), arrows move, Enter edits.
    await page.keyboard.press('Tab');
    const focused = () =>
      page.evaluate(() => {
        const cell = document.querySelector('#f').shadowRoot.activeElement;
        return cell && `${cell.closest('svg').dataset.stage} ${cell.dataset.row},${cell.dataset.col}`;
      });
    expect(await focused()).toBe('x 0,0');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('x 1,0');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#f').shadowRoot.activeElement?.classList.contains('cell-editor'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    const x = [
      [1, 2],
      [2, 1],
      [3, 1],
    ];
    await page.waitForFunction(
      () => document.querySelector('#f').shadowRoot.querySelector('svg[data-stage="x"] [data-row="1"][data-col="0"]').dataset.value === '2',
    );
    const exact = selfAttention({ ...SEED_004, x });
    expect(worstDifference((await shadowStageValues(page, '#f', 'q'))[0], exact.q).diff).toBeLessThan(FLOAT32);
    expect(worstDifference((await shadowStageValues(page, '#f', 'weights'))[0], exact.weights).diff).toBeLessThan(FLOAT32);
    expect(await focused()).toBe('x 2,0'); // Enter commits and moves down, as in a spreadsheet
    expect(problems).toEqual([]);
  });

  it('editable: a matrix pasted onto a cell of X inside the shadow root replaces X, and the sizes follow it', async () => {
    const { page, problems } = await show('paste.html', '<attn-figure id="f" preset="seed-004" stages="x q" editable></attn-figure>', ['#f'], {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await page.evaluate(() => navigator.clipboard.writeText('1 & 0 & 1 \\\\ 0 & 2 & 0 \\\\ 1 & 1 & 1'));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+V');
    await page.waitForFunction(() => document.querySelector('#f').shadowRoot.querySelector('svg[data-stage="x"] [data-row="0"][data-col="2"]'));
    expect((await shadowStageValues(page, '#f', 'x'))[0]).toEqual([
      [1, 0, 1],
      [0, 2, 0],
      [1, 1, 1],
    ]);
    expect(await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('.paste-notice').textContent)).toBe(
      'Pasted a 3 × 3 matrix into X. d_in is now 3 (was 2): W^Q, W^K, W^V were resized to match, new numbers seeded; paste them next.',
    );
    expect(problems).toEqual([]);
  });

  it('editable: a drag scrubs a cell of X without opening a field, a click on a score masks it; without editable, neither', async () => {
    const { page, problems } = await show(
      'scrub.html',
      `
      <attn-figure id="f" preset="seed-004" stages="x scores" editable></attn-figure>
      <attn-figure id="g" preset="seed-004" stages="x scores"></attn-figure>`,
      ['#f', '#g'],
    );
    const cellBox = (id, stage, row, col) =>
      page.evaluate(
        ([id, stage, row, col]) => {
          const r = document
            .querySelector(id)
            .shadowRoot.querySelector(`svg[data-stage="${stage}"] .cell[data-row="${row}"][data-col="${col}"]`)
            .getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
        },
        [id, stage, row, col],
      );
    const value = (id, stage, row, col) =>
      page.evaluate(
        ([id, stage, row, col]) =>
          document.querySelector(id).shadowRoot.querySelector(`svg[data-stage="${stage}"] .cell[data-row="${row}"][data-col="${col}"]`).dataset.value,
        [id, stage, row, col],
      );
    const editorOpen = (id) => page.evaluate((id) => Boolean(document.querySelector(id).shadowRoot.querySelector('.cell-editor')), id);
    const maskedScores = (id) => page.evaluate((id) => document.querySelector(id).state.maskedCells, id);
    const drag = async (id) => {
      const at = await cellBox(id, 'x', 0, 0);
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      await page.mouse.move(at.x + 50, at.y, { steps: 5 }); // 50 px at 0.02 per px: +1
      await page.mouse.up();
      await settle(page);
    };
    await drag('#f');
    expect(await value('#f', 'x', 0, 0)).toBe('2'); // X[0][0] was 1
    // The click of the press that ended the drag, had it reached the (redrawn) cell, opens no field.
    await page.evaluate(() =>
      document
        .querySelector('#f')
        .shadowRoot.querySelector('svg[data-stage="x"] .cell[data-row="0"][data-col="0"]')
        .dispatchEvent(new MouseEvent('click', { bubbles: true })),
    );
    expect(await editorOpen('#f')).toBe(false);
    // The next click is one: on a score it masks that score.
    const score = await cellBox('#f', 'scores', 1, 2);
    await page.mouse.click(score.x, score.y);
    await page.waitForFunction(() => document.querySelector('#f').state.maskedCells.length === 1);
    expect(await maskedScores('#f')).toEqual([[0, 1, 2]]);
    // Without `editable`, the same gestures change nothing.
    await drag('#g');
    expect(await value('#g', 'x', 0, 0)).toBe('1');
    const other = await cellBox('#g', 'scores', 1, 2);
    await page.mouse.click(other.x, other.y);
    await page.waitForTimeout(100);
    expect(await maskedScores('#g')).toEqual([]);
    expect(await editorOpen('#g')).toBe(false);
    expect(problems).toEqual([]);
  });

  it('the export menu listens on the document only while open; a click elsewhere and Escape close it', async () => {
    // Counts the page's live document click/keydown listeners (a classic script runs before the module).
    const head = `<script>
      window.documentListeners = 0;
      const add = Document.prototype.addEventListener;
      const remove = Document.prototype.removeEventListener;
      const live = new Set();
      const count = () => { window.documentListeners = live.size; };
      Document.prototype.addEventListener = function (type, fn, o) { if (type === 'click' || type === 'keydown') live.add(fn); count(); return add.call(this, type, fn, o); };
      Document.prototype.removeEventListener = function (type, fn, o) { live.delete(fn); count(); return remove.call(this, type, fn, o); };
    </script>`;
    const { page, problems } = await show(
      'menu.html',
      '<p id="outside">Text.</p><attn-figure id="f" preset="seed-004" stages="weights"></attn-figure>',
      ['#f'],
      { head },
    );
    const listeners = () => page.evaluate(() => window.documentListeners);
    const open = () => page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('details.figure-menu').open);
    const summary = page.locator('#f').locator('summary');
    expect(await listeners()).toBe(0);
    await summary.click();
    expect(await open()).toBe(true);
    await page.waitForFunction(() => window.documentListeners === 1);
    await page.locator('#outside').click();
    expect(await open()).toBe(false);
    await page.waitForFunction(() => window.documentListeners === 0);
    await summary.click();
    await page.waitForFunction(() => window.documentListeners === 1);
    await page.keyboard.press('Escape');
    expect(await open()).toBe(false);
    await page.waitForFunction(() => window.documentListeners === 0);
    expect(await page.evaluate(() => document.querySelector('#f').shadowRoot.activeElement?.localName)).toBe('summary');
    expect(problems).toEqual([]);
  });

  it('is isolated by its shadow root: page styles do not reach the figure, its styles do not reach the page', async () => {
    const probe = (page) =>
      page.evaluate(() => {
        const root = document.querySelector('#f').shadowRoot;
        const tile = root.querySelector('svg[data-stage="weights"] .cell .tile');
        const num = root.querySelector('svg[data-stage="weights"] .cell .num');
        const button = root.querySelector('.tool');
        const outside = document.querySelector('.toolbar .tool');
        return {
          tile: getComputedStyle(tile).fill,
          num: [getComputedStyle(num).fill, getComputedStyle(num).fontSize],
          button: getComputedStyle(button).color,
          outside: [getComputedStyle(outside).borderTopWidth, getComputedStyle(outside).paddingTop],
        };
      });
    const figure = '<attn-figure id="f" preset="seed-004" stages="weights"></attn-figure><div class="toolbar"><button class="tool">page button</button></div>';
    const plain = await show('plain.html', figure, ['#f']);
    const hostile = await show('hostile.html', figure, ['#f'], {
      head: '<style>* { color: red !important; font-size: 40px !important } rect { fill: red !important } text { fill: lime !important } .tool { color: blue !important }</style>',
    });
    const a = await probe(plain.page);
    const b = await probe(hostile.page);
    expect(b.tile).toBe(a.tile);
    expect(b.num).toEqual(a.num);
    expect(b.button).toBe(a.button);
    // The page's own .toolbar .tool keeps the browser's defaults (no padding of the elements' .tool).
    expect(a.outside).toEqual(b.outside);
    expect(a.outside[1]).not.toBe('5px');
    expect([...plain.problems, ...hostile.problems]).toEqual([]);
  });

  it('follows light and dark: the theme attribute and the page colour scheme change the cell colour', async () => {
    const { page, problems } = await show(
      'themes.html',
      `
      <attn-figure id="light" preset="seed-004" stages="weights" theme="light"></attn-figure>
      <attn-figure id="dark" preset="seed-004" stages="weights" theme="dark"></attn-figure>
      <attn-figure id="custom" preset="seed-004" stages="weights" style="--attn-cell: rgb(1, 2, 3)"></attn-figure>`,
      ['#light', '#dark', '#custom'],
    );
    const background = (id) => page.evaluate((sel) => getComputedStyle(document.querySelector(sel).shadowRoot.querySelector('.frame')).backgroundColor, id);
    expect(await background('#light')).toBe('rgb(255, 255, 255)');
    expect(await background('#dark')).toBe('rgb(22, 23, 31)');
    expect(await background('#custom')).toBe('rgb(1, 2, 3)');
    expect(problems).toEqual([]);
  });

  it('exports the figure as a valid SVG (with the exact numbers) and a PNG', async () => {
    const { page, problems } = await show('export.html', '<attn-figure id="f" preset="seed-004" stages="scores weights"></attn-figure>', ['#f']);
    const save = async (kind) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.evaluate((k) => document.querySelector('#f').shadowRoot.querySelector(`[data-export="${k}"]`).click(), kind),
      ]);
      const chunks = [];
      for await (const chunk of await download.createReadStream()) chunks.push(chunk);
      return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
    };
    const svgFile = await save('svg');
    expect(svgFile.name).toBe('attention-lab-seed-004-scores-weights.svg');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.localName,
        stages: [...doc.querySelectorAll('svg[data-stage]')].map((s) => s.dataset.stage),
        weights: [...doc.querySelectorAll('svg[data-stage="weights"] [data-value]')].map((c) => Number(c.dataset.value)),
        texts: [...doc.querySelectorAll(':root > text')].map((t) => t.textContent),
      };
    }, svgFile.bytes.toString('utf8'));
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe('svg');
    expect(parsed.stages).toEqual(['scores', 'weights']);
    expect(worstDifference(parsed.weights, selfAttention(SEED_004).weights.flat()).diff).toBeLessThan(FLOAT32);
    expect(parsed.texts).toEqual(expect.arrayContaining(['attention weights', 'raw scores']));

    const pngFile = await save('png');
    expect(pngFile.name).toBe('attention-lab-seed-004-scores-weights.png');
    expect([...pngFile.bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]); // the PNG signature
    const [width, height] = [pngFile.bytes.readUInt32BE(16), pngFile.bytes.readUInt32BE(20)]; // IHDR
    expect(width).toBeGreaterThan(200);
    expect(height).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});

describe('<attn-heatmap>', () => {
  it('draws given weights with their labels, exactly, with no wasm', async () => {
    const weights = [
      [0.9, 0.1],
      [0.3, 0.7],
    ];
    const { page, problems, requests } = await show(
      'heatmap.html',
      `
      <attn-heatmap id="h" weights="${JSON.stringify(weights)}" row-labels="the cat" col-labels="the cat" title="Head 1"></attn-heatmap>
      <attn-heatmap id="j"><script type="application/json">{ "weights": [[0.25, 0.75]], "rowLabels": ["q"], "colLabels": ["a", "b"] }</script></attn-heatmap>`,
      ['#h', '#j'],
    );
    const values = (await shadowStageValues(page, '#h', 'weights'))[0];
    expect(values).toEqual(weights.map((row) => row.map(Math.fround))); // the float32 of each given number
    expect((await shadowStageValues(page, '#j', 'weights'))[0]).toEqual([[0.25, 0.75]]);
    const label = await page.evaluate(() => document.querySelector('#h').shadowRoot.querySelector('.attn-title').textContent);
    expect(label).toBe('Head 1');
    expect(wasmRequests(requests)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('color-scale="signed" colours negative entries with the negative tone', async () => {
    const { page, problems } = await show('signed.html', '<attn-heatmap id="h" color-scale="signed" weights="[[-2, 1], [0.5, 2]]"></attn-heatmap>', ['#h']);
    const tones = await page.evaluate(() =>
      [...document.querySelector('#h').shadowRoot.querySelectorAll('.cell')].map((c) =>
        c.classList.contains('neg') ? 'neg' : c.classList.contains('pos') ? 'pos' : 'other',
      ),
    );
    expect(tones).toEqual(['neg', 'pos', 'pos', 'pos']);
    expect(problems).toEqual([]);
  });

  it('says what is wrong with ragged weights or a wrong number of labels', async () => {
    const { page, problems } = await show(
      'heatmap-errors.html',
      `
      <attn-heatmap id="a" weights="[[1, 0], [1]]"></attn-heatmap>
      <attn-heatmap id="b" weights="[[1, 0], [0, 1]]" row-labels="one"></attn-heatmap>`,
    );
    const messages = await errorMessages(page, ['#a', '#b']);
    expect(messages[0]).toMatch(/weights/);
    expect(messages[1]).toMatch(/row-labels must have 2 labels/);
    expect(problems).toEqual([]);
  });
});
