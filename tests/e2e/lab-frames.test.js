// The training lab keeps drawing frames while it trains (issue 36: no frame over 50 ms): training
// runs on a worker, and the page redraws the curves at most every 250 ms and the model view at most
// every second, in frames of their own (web/site/features/lab/panel.js). Timed: the project 'timed'
// runs this file alone.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';

const WATCH_MS = 5000; // seconds of training watched: 20 redraws of the curves, 5 of the model view
const FRAME_MS = 50; // the issue's bound on a frame
const SHARED_MS = 250; // the bound on the longest frame on a busy machine (speed.test.js's too)
const BUSY = 4; // runnable processes per core from which the machine counts as busy

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The q-quantile of a sorted list (nearest rank). */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

describe('the training lab while it trains', () => {
  it('draws every frame within 50 ms (250 ms on a busy machine), 95% within 50 ms, and reports the longest', async () => {
    const { page, problems } = await site.open('?view=lab');
    await page.waitForSelector('[data-role="status"][data-step="0"]', { timeout: 30_000 });
    await settle(page);
    await page.click('[data-action="lab-train"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-role="status"]').dataset.step) >= 10);
    // Two records over the same seconds: the gap between animation frames (what the reader sees),
    // and Chromium's long animation frames (over 50 ms) with the page's own share of each: its
    // scripts and its style and layout. A frame that is long with none of that waited for the CPU
    // (the machine's other processes), not for the page.
    const { gaps, long, steps } = await page.evaluate(async (watch) => {
      const long = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const scripts = e.scripts.reduce((sum, s) => sum + s.duration, 0);
          const layout = e.styleAndLayoutStart > 0 ? e.startTime + e.duration - e.styleAndLayoutStart : 0;
          long.push({ duration: e.duration, own: scripts + layout, scripts: e.scripts.map((s) => `${s.invoker} ${Math.round(s.duration)} ms`) });
        }
      });
      observer.observe({ type: 'long-animation-frame' });
      const gaps = [];
      const first = Number(document.querySelector('[data-role="status"]').dataset.step);
      await new Promise((resolve) => {
        const start = performance.now();
        let last = start;
        const tick = (now) => {
          gaps.push(now - last);
          last = now;
          if (now - start < watch) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      observer.disconnect();
      return { gaps: gaps.slice(1), long, steps: Number(document.querySelector('[data-role="status"]').dataset.step) - first };
    }, WATCH_MS);
    await page.click('[data-action="lab-pause"]');
    await page.waitForSelector('.panel-lab[data-running="false"]');
    const load = os.loadavg()[0] / os.cpus().length; // the last minute's runnable processes per core
    const bound = load < BUSY ? FRAME_MS : SHARED_MS;
    const sorted = [...gaps].sort((a, b) => a - b);
    const longest = sorted.at(-1);
    const p95 = quantile(sorted, 0.95);
    const ownWorst = Math.max(0, ...long.map((f) => f.own));
    const worstFrame = long.find((f) => f.own === ownWorst);
    console.log(
      `lab frames over ${WATCH_MS / 1000} s of training (${steps} steps): ${gaps.length} frames, longest ${longest.toFixed(1)} ms, ` +
        `95th percentile ${p95.toFixed(1)} ms, ${gaps.filter((g) => g > FRAME_MS).length} over ${FRAME_MS} ms; ` +
        `load ${load.toFixed(1)} per core (every frame held to ${bound} ms); the page's own work in a frame at most ${ownWorst.toFixed(1)} ms${worstFrame ? ` (${worstFrame.scripts.join(', ')})` : ''}`,
    );
    expect(steps).toBeGreaterThan(20); // it trained meanwhile
    expect(p95).toBeLessThan(FRAME_MS);
    // The issue's bound holds for every frame on a machine doing nothing else (the timed project's
    // premise: at a load of 2.6 per core, 300 frames, the longest 16.8 ms); on a busy one a frame
    // waits for the CPU now and then (at 7 per core: 133-183 ms, long frames with almost none of
    // the page's work), so there every frame is held to SHARED_MS. Training on the page's thread
    // would read seconds.
    expect(longest, `held to ${bound} ms at a load of ${load.toFixed(1)} per core`).toBeLessThan(bound);
    expect(problems).toEqual([]);
  });
});
