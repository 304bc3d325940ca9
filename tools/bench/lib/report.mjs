// Tables of benchmark results: plain text for the terminal, markdown for bench/results.md.
// A measured configuration: { title, unit, passKey?, chart?, rows } with rows
// { library, form, threads, ms, rate, efficiency, ratio, diff, samples, error? } (ours first; ratio =
// row ms / ours ms, so 2.0 means attention-lab's wasm-simd is twice as fast as that row; efficiency =
// rate over the machine's wasm SIMD ceiling per thread (ceiling.mjs), GFLOP/s rows only).

const ISSUE_TARGETS = [
  { passKey: 'forward', library: 'onnxruntime-web', threads: 1, target: 1.4 },
  { passKey: 'causal', library: 'onnxruntime-web', threads: 1, target: 2.4 },
  { passKey: 'forwardBackward', library: 'onnxruntime-web', threads: 1, target: 1.3 },
  { passKey: 'forwardBackward', library: 'tfjs-backend-wasm', threads: 1, target: 10 },
];

const fixed = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const rateDigits = (unit) => (unit === 'us/call' ? 1 : 2);

/** The fastest measured row of a library at a thread count. */
export function bestOf(rows, library, threads) {
  const measured = rows.filter((r) => r.library === library && r.threads === threads && !r.error);
  return measured.length ? measured.reduce((a, b) => (b.ms < a.ms ? b : a)) : null;
}

function cells(row, unit) {
  if (row.error) return [row.library, row.form, String(row.threads), '-', '-', '-', '-', '-', '-', `not timed: ${row.error}`];
  return [
    row.library,
    row.form,
    String(row.threads),
    fixed(row.ms, row.ms < 10 ? 3 : 1),
    fixed(row.rate, rateDigits(unit)),
    Number.isFinite(row.efficiency) ? `${(100 * row.efficiency).toFixed(0)}%` : '-',
    row.ratio === 1 && row.library === 'attention-lab' && row.form === 'wasm-simd' ? '1 (ours)' : `${fixed(row.ratio, 2)}x`,
    row.diff === undefined ? 'reference' : row.diff.toExponential(1),
    String(row.samples),
    '',
  ];
}

const HEAD = (unit) => ['library', 'form', 'threads', 'median ms', unit, 'of ceiling', 'ours faster by', 'max abs diff', 'calls', 'note'];

/** One configuration as aligned text. */
export function textTable(m) {
  const lines = [HEAD(m.unit), ...m.rows.map((r) => cells(r, m.unit))];
  const widths = HEAD(m.unit).map((_, c) => Math.max(...lines.map((l) => l[c].length)));
  const right = new Set([2, 3, 4, 5, 6, 7, 8]);
  const fmt = (l) => l.map((x, c) => (right.has(c) ? x.padStart(widths[c]) : x.padEnd(widths[c]))).join('  ').trimEnd();
  return [`${m.title}  (${m.workText})`, fmt(lines[0]), ...lines.slice(1).map(fmt)].join('\n');
}

/** One configuration as a markdown table (the note column only when something was not timed). */
export function markdownTable(m) {
  const withNotes = m.rows.some((r) => r.error);
  const keep = (l) => (withNotes ? l : l.slice(0, -1));
  const row = (l) => `| ${keep(l).join(' | ')} |`;
  const align = keep(HEAD(m.unit).map((_, c) => (c >= 2 && c <= 8 ? '---:' : '---')));
  return [`#### ${m.title}`, '', `${m.workText}`, '', row(HEAD(m.unit)), row(align), ...m.rows.map((r) => row(cells(r, m.unit)))].join('\n');
}

// Our builds the targets are read for, one thread each: the SIMD build (the explorer's, and the
// library's default where the engine has no relaxed SIMD) and the relaxed one (the library's default
// where it has).
export const TARGET_BUILDS = ['wasm-simd', 'wasm-relaxed'];

/** Our one-thread row of a build in a configuration, if it was timed. */
export function oursOf(rows, form) {
  return rows.find((r) => r.library === 'attention-lab' && r.form === form && r.threads === 1 && !r.error) ?? null;
}

/**
 * The issue's targets, as measured: [{ config, build, peer, ours, theirs, ratio, target, met }] per
 * sdpa configuration, target and build of ours (TARGET_BUILDS); each peer at its fastest form.
 */
export function targetLines(measured) {
  const lines = [];
  for (const m of measured.filter((x) => x.passKey)) {
    for (const t of ISSUE_TARGETS.filter((x) => x.passKey === m.passKey)) {
      const peer = bestOf(m.rows, t.library, t.threads);
      for (const build of TARGET_BUILDS) {
        const ours = oursOf(m.rows, build);
        if (!peer || !ours) continue;
        const ratio = peer.ms / ours.ms;
        lines.push({
          config: m.title,
          build,
          peer: `${t.library} (${peer.form}, ${t.threads} thread)`,
          ours: ours.rate,
          theirs: peer.rate,
          ratio,
          target: t.target,
          met: ratio >= t.target,
        });
      }
    }
  }
  return lines;
}
