// Our SIMD and relaxed-SIMD builds in Chromium (Debian's /usr/bin/chromium through playwright-core),
// with the ceilings of ceiling.mjs measured in the same page: the measurement that decides whether
// the relaxed build is loadAttention()'s default (web/src/boundary/loader.js, loadModule).
// Usage: node tools/bench/browser-builds.mjs [--rounds N]
// sdpa forward and forward+backward (saved out, lse), B=1 H=8 d=64 T=512 and 1024, and BERT-base
// B=8 H=12 T=128; the two builds alternate call by call, median wall ms per call (a page has no
// CPU clock, so on a loaded machine only the ratio between the builds means much).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../chromium.mjs';
import { pairedText } from './lib/paired.mjs';

const args = process.argv.slice(2);
const rounds = Number(args.includes('--rounds') ? args[args.indexOf('--rounds') + 1] : 9);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs in the page: every shape and pass, both builds alternating. */
async function inPage({ rounds }) {
  const { loadAttention, relaxedSimdSupported } = await import('/web/src/index.js');
  const { measureCeilings } = await import('/tools/bench/lib/ceiling.mjs');
  const { median, timeAlternating, timeCall } = await import('/web/site/features/speed/timing.js');
  const { pairedRatio } = await import('/tools/bench/lib/paired.mjs');
  const ceilings = await measureCeilings();
  if (!relaxedSimdSupported()) return { ceilings, rows: [], note: 'this Chromium has no relaxed SIMD' };
  const builds = [await loadAttention({ simd: true }), await loadAttention({ simd: 'relaxed' })];
  const fill = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) % 1);
  const rows = [];
  for (const [B, H, T] of [[1, 8, 512], [1, 8, 1024], [8, 12, 128]]) {
    const d = 64;
    const shape = [B, H, T, d];
    const [q, k, v, dout] = [1, 2, 3, 4].map((s) => ({ data: fill(B * H * T * d, s), shape }));
    const passes = {
      forward: [4, (attn) => attn.scaledDotProductAttention(q, k, v)],
      'fwd+bwd (saved)': [14, (attn) => attn.scaledDotProductAttentionBackward(q, k, v, dout, { saved: attn.scaledDotProductAttention(q, k, v, { returnLse: true }) })],
    };
    for (const [pass, [perEntry, run]] of Object.entries(passes)) {
      // 3 warm-up calls each (tier-up), then `rounds` rounds, the two builds taking turns.
      const times = await timeAlternating(builds.map((attn) => ({ time: () => timeCall(() => run(attn)) })), {
        minSamples: rounds, maxSamples: rounds, warmupMs: Infinity, maxWarmup: 3,
      });
      const flops = perEntry * B * H * T * T * d;
      const ms = times.map(median);
      rows.push({
        shape: `B=${B} H=${H} T=${T} d=${d}`, pass, simdMs: ms[0], relaxedMs: ms[1], simdGflops: flops / ms[0] / 1e6, relaxedGflops: flops / ms[1] / 1e6,
        gain: pairedRatio(times[0], times[1]),
      });
    }
  }
  const tiles = builds.map((attn) => `${attn.build.name} ${attn.build.tile}`).join(', ');
  return { ceilings, rows, userAgent: navigator.userAgent, tiles };
}

// The repository served from disk to a made-up origin (no server, no network): playwright answers
// every request of the page itself, with the content type of the file's extension.
const ORIGIN = 'http://attention-lab.bench';
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.route(`${ORIGIN}/**`, (route) => {
    const file = path.join(root, decodeURIComponent(new URL(route.request().url()).pathname));
    return file.startsWith(root + path.sep) ? route.fulfill({ path: file }) : route.abort();
  });
  await page.goto(`${ORIGIN}/package.json`);
  const { ceilings, rows, note, userAgent, tiles } = await page.evaluate(inPage, { rounds });
  console.log(userAgent ?? note);
  if (tiles) console.log(`the builds' register tiles: ${tiles}`);
  const c = (x) => (x ? `${x.gflops.toFixed(1)} GFLOP/s` : 'unsupported');
  console.log(`ceilings (wall clock, in the page): mul+add ${c(ceilings.simd)}, relaxed_madd ${c(ceilings.relaxed)}`);
  console.log('\nshape                  pass              simd ms  relaxed ms  simd GFLOP/s  relaxed GFLOP/s  relaxed gain');
  for (const r of rows) {
    console.log(
      `${r.shape.padEnd(23)}${r.pass.padEnd(16)}${r.simdMs.toFixed(2).padStart(9)}${r.relaxedMs.toFixed(2).padStart(12)}` +
        `${r.simdGflops.toFixed(1).padStart(14)}${r.relaxedGflops.toFixed(1).padStart(17)}${(r.simdMs / r.relaxedMs).toFixed(2).padStart(13)}x`,
    );
  }
  // Round by round (lib/paired.mjs): each round's calls ran moments apart, so a slow spell of a
  // shared machine moves both sides of its ratio; a ratio of 1 inside the middle half is no difference.
  console.log('\nround by round, the median ratio and the middle half of the rounds:');
  for (const r of rows) {
    console.log(`${r.shape.padEnd(23)}${r.pass.padEnd(16)}relaxed gain (simd / relaxed) ${pairedText(r.gain)}`);
  }
} finally {
  await browser.close();
}
