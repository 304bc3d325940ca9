// How fast the figures draw in real Chromium from the raw sources: the model view of 12 x 12 heads
// at T = 128 (from arrays, and from a 9.4 MB safetensors file through <attn-heads src>) and one
// canvas map at T = 2048. In the Vitest project `timed`, which runs its files one at a time with
// nothing else running; the bounds are ceilings with room for a shared machine, not benchmarks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elementsPage, startPages } from '../support/pages.js';

// The figure functions and attention-lab/io in the page as window.figures and window.io (an
// import() inside page.evaluate would be rewritten by Vite), beside the elements, and
// window.causalUniform(L, H, T): (L, H, T, T) float32 weights whose rows are causal and uniform,
// and window.twoFrames(), which resolves after two frames (inside a timed span, so in the page).
const MODULES = `<link rel="stylesheet" href="./web/figures/figures.css">
  <script type="module">
    import * as figures from './web/figures/index.js';
    import * as io from './web/io/index.js';
    const causalUniform = (L, H, T) => {
      const data = new Float32Array(L * H * T * T);
      for (let r = 0; r < L * H * T; r++) for (let j = 0; j <= r % T; j++) data[r * T + j] = 1 / ((r % T) + 1);
      return data;
    };
    const twoFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    Object.assign(window, { figures, io, causalUniform, twoFrames, ready: true });
  </script>`;

let pages;
let page;
let problems;
beforeAll(async () => {
  pages = await startPages();
  await pages.write('times.html', elementsPage('<div id="slot"></div>', { head: MODULES }));
  ({ page, problems } = await pages.open('times.html', { viewport: { width: 1400, height: 1000 } }));
  await page.waitForFunction(() => window.ready);
});
afterAll(async () => {
  await pages?.close();
});

const THUMBNAILS = 12 * 12 + 12 + 2 * 13; // the heads, the mean row, the mean and max columns (with their mean)

describe('render times in Chromium (this machine is shared: a ceiling, not a benchmark)', () => {
  it('heads(): 12 layers x 12 heads at T = 128 render in under 1 s, aggregates included', async () => {
    const ms = await page.evaluate(async () => {
      const L = 12,
        H = 12,
        T = 128;
      const data = window.causalUniform(L, H, T);
      const start = performance.now();
      document.querySelector('#slot').replaceChildren(window.figures.heads({ data, shape: [L, H, T, T] }));
      await window.twoFrames();
      return performance.now() - start;
    });
    console.log(`heads 12x12 at T = 128: ${ms.toFixed(0)} ms`);
    expect(await page.locator('#slot canvas[data-layer][data-head]').count()).toBe(THUMBNAILS);
    expect(ms).toBeLessThan(1000);
  });

  it('<attn-heads src>: 12 x 12 heads at T = 128 from a 9.4 MB safetensors file load and render in under 1.5 s', async () => {
    const times = await page.evaluate(async () => {
      const L = 12,
        H = 12,
        T = 128;
      const data = window.causalUniform(L, H, T);
      const url = URL.createObjectURL(new Blob([window.io.writeSafetensors({ attention: { data, shape: [L, H, T, T] } })]));
      const element = document.createElement('attn-heads');
      element.setAttribute('src', url);
      const start = performance.now();
      const rendered = new Promise((resolve) => element.addEventListener('attn-render', resolve, { once: true }));
      document.querySelector('#slot').replaceChildren(element);
      await rendered;
      await window.twoFrames();
      return { ms: performance.now() - start, thumbs: element.shadowRoot.querySelectorAll('canvas[data-layer][data-head]').length };
    });
    console.log(`<attn-heads> 12x12 at T = 128 from a blob URL (fetch, read, draw): ${times.ms.toFixed(0)} ms`);
    expect(times.thumbs).toBe(THUMBNAILS);
    expect(times.ms).toBeLessThan(1500); // fetch and read of 9.4 MB on top of the 1 s of drawing
  });

  it('canvasHeatmap(): one map at T = 2048 draws in under 1 s, scrolls, and reads the exact weight under the pointer', async () => {
    const result = await page.evaluate(async () => {
      const T = 2048;
      const data = new Float32Array(T * T);
      for (let i = 0; i < T; i++) data[i * T + (i % 7)] = 1;
      const start = performance.now();
      document.querySelector('#slot').replaceChildren(window.figures.canvasHeatmap({ data, shape: [T, T] }, { cellSize: 2 }));
      await window.twoFrames();
      const ms = performance.now() - start;
      const scroller = document.querySelector('.attn-canvas-scroll');
      scroller.scrollTop = 1000;
      return {
        ms,
        scrolled: scroller.scrollTop,
        cells: document.querySelectorAll('#slot [data-value]').length,
        size: [document.querySelector('#slot canvas').width, document.querySelector('#slot canvas').height],
      };
    });
    console.log(`canvasHeatmap at T = 2048: ${result.ms.toFixed(0)} ms`);
    expect(result).toMatchObject({ scrolled: 1000, cells: 0, size: [2048, 2048] });
    expect(result.ms).toBeLessThan(1000);
    const box = await page.locator('#slot canvas').boundingBox();
    // Weight (i, j) sits at CSS pixel (2j, 2i) of the canvas, which the scroller moved up by 1000 px.
    await page.mouse.move(box.x + 2 * 6 + 1, box.y + 2 * 510 + 1);
    const readout = await page.evaluate(() => ({ ...document.querySelector('[data-role=readout]').dataset }));
    expect(readout).toMatchObject({ row: '510', col: '6', value: '1' }); // row i holds its 1 at key i % 7
    expect(problems).toEqual([]);
  });
});
