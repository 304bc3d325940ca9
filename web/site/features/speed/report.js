// What the speed panel shows and lets a reader copy, from the worker's results (worker.js): one row
// per contender, with its rate as a fraction of this machine's ceiling through wasm SIMD. The
// Markdown report stays in English (NAMES); the page's words come from the catalog (speed.*). Pure
// data and text, no DOM, so it is tested in Node (tests/js/tools/speed-report.test.js).
import { forwardFlops } from '../../../measure/timing.js';
import { t as translate } from '../../../i18n/index.js';

export const NAMES = {
  'wasm-relaxed': 'wasm relaxed SIMD',
  'wasm-simd': 'wasm SIMD',
  'wasm-scalar': 'wasm scalar',
  'plain-js': 'plain JavaScript',
};

/**
 * The ceiling a contender's rate is read against: the relaxed build's multiply-adds are
 * f32x4.relaxed_madd, so its own probe; every other contender (SIMD, scalar, plain JS) against
 * f32x4 mul+add, what the standard instructions can do. null when not measured (yet).
 */
export function ceilingFor(id, ceiling) {
  return (id === 'wasm-relaxed' ? ceiling?.relaxed : ceiling?.simd) ?? null;
}

/**
 * stats: { [id]: { samples: ms[], median } } (timing.js timeContenders); size { T, d, heads };
 * ceiling { simd, relaxed } GFLOP/s or null. -> [{ id, name, median, gflops, vsPlain, ofCeiling,
 * samples }] in the order of stats, vsPlain the plain-JS median over this one's (NaN without it),
 * ofCeiling GFLOP/s over the contender's ceiling (null without one).
 */
export function speedRows(stats, size, ceiling) {
  const flops = forwardFlops(size);
  const plain = stats['plain-js']?.median;
  return Object.entries(stats).map(([id, s]) => {
    const gflops = flops / (s.median * 1e6);
    const peak = ceilingFor(id, ceiling);
    return {
      id,
      name: NAMES[id] ?? id,
      median: s.median,
      gflops,
      vsPlain: plain / s.median,
      ofCeiling: peak && Number.isFinite(gflops) ? gflops / peak : null,
      samples: s.samples.length,
    };
  });
}

const fixed = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '…');
export const formatMs = (ms) => fixed(ms, ms < 1 ? 3 : 1);
export const formatGflops = (x) => fixed(x, 2);
export const formatPercent = (fraction) => (fraction === null ? '–' : `${fixed(100 * fraction, 0)}%`);
export const formatRatio = (ratio) => fixed(ratio, 1);

const english = (key, params) => translate('en', key, params);

/** One sentence on the ceilings, or on their absence; t(key, params): the page's messages (English by default). */
export function ceilingSentence(ceiling, t = english) {
  if (!ceiling?.simd) return t('speed.no-simd');
  const relaxed = ceiling.relaxed ? t('speed.ceiling-relaxed', { relaxed: ceiling.relaxed.toFixed(1) }) : t('speed.ceiling-no-relaxed');
  return t('speed.ceiling', { simd: ceiling.simd.toFixed(1), relaxed });
}

/**
 * The results as Markdown, to paste into an issue or a note: the size, the machine as the browser
 * describes it (userAgent, hardwareConcurrency: a page cannot read the CPU's model), the ceiling and
 * the table. machine: { userAgent, cores }.
 */
export function markdownReport(rows, size, ceiling, machine) {
  const lines = [
    `attention-lab speed, forward pass, T = ${size.T}, d = ${size.d}, H = ${size.heads} (B = 1, one thread, ${(forwardFlops(size) / 1e6).toFixed(1)} MFLOP per call)`,
    '',
    `- Browser: ${machine.userAgent}`,
    `- Logical cores: ${machine.cores ?? 'not reported'}`,
    `- Ceiling (f32x4 mul+add / relaxed_madd): ${ceiling?.simd ? ceiling.simd.toFixed(1) : '–'} / ${ceiling?.relaxed ? ceiling.relaxed.toFixed(1) : '–'} GFLOP/s`,
    '',
    '| contender | ms / call | GFLOP/s | of ceiling | vs plain JS | samples |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) => `| ${r.name} | ${formatMs(r.median)} | ${formatGflops(r.gflops)} | ${formatPercent(r.ofCeiling)} | ${formatRatio(r.vsPlain)}x | ${r.samples} |`,
    ),
  ];
  return lines.join('\n');
}
