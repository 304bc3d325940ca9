// The speed panel times the three contenders in a worker while the page keeps drawing frames.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../support/site.js';

let site;
beforeAll(async () => { site = await startSite(); });
afterAll(async () => { await site?.close(); });

describe('speed panel', () => {
  it('the speed panel times wasm SIMD, wasm scalar and plain JavaScript without blocking the page', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await page.selectOption('#speed-T', '64');
    await page.selectOption('#speed-d', '16');
    await page.selectOption('#speed-heads', '1');
    // Watch the frames while the timing runs: the longest gap between two animation frames.
    await page.evaluate(() => {
      window.frameGaps = { last: performance.now(), worst: 0, running: true };
      const tick = (now) => {
        const g = window.frameGaps;
        g.worst = Math.max(g.worst, now - g.last);
        g.last = now;
        if (g.running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.locator('.speed-card').getByRole('button', { name: 'Run' }).click();
    await page.waitForFunction(() => document.querySelector('.speed-status').textContent.startsWith('Done'), null, { timeout: 45_000 });
    const worstGap = await page.evaluate(() => { window.frameGaps.running = false; return window.frameGaps.worst; });
    const rows = await page.$$eval('.speed-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.contender, Number(tr.dataset.median), tr.querySelector('td:nth-of-type(3)').textContent]));
    expect(rows.map((r) => r[0])).toEqual(['wasm-simd', 'wasm-scalar', 'plain-js']);
    for (const [id, ms] of rows) expect(ms, id).toBeGreaterThan(0);
    expect(rows[2][2]).toBe('1×');
    // The timing runs in a worker: the page's frames never wait on it (a shared 2-core machine
    // may still delay one frame, hence the generous bound).
    expect(worstGap).toBeLessThan(250);
    expect(problems).toEqual([]);
  });
});
