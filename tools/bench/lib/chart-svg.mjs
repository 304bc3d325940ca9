// bench/chart.svg: GFLOP/s against sequence length, one panel per sdpa pass, one line per library
// (each peer at its fastest form), written by hand as SVG. The chart paints its own background and
// switches it with prefers-color-scheme, so it reads on light and dark pages alike.
import { bestOf } from './report.mjs';

const SERIES = [
  { library: 'attention-lab', form: 'wasm-simd', threads: 1, label: 'attention-lab wasm-simd', color: '#e8590c', width: 3 },
  { library: 'attention-lab', form: 'wasm-simd', threads: 2, label: 'attention-lab wasm-simd, 2 threads', color: '#e8590c', width: 2, dash: '6 4' },
  { library: 'attention-lab', form: 'wasm-scalar', threads: 1, label: 'attention-lab wasm-scalar', color: '#c2255c', width: 1.5, dash: '2 3' },
  { library: 'onnxruntime-web', threads: 1, label: 'onnxruntime-web', color: '#1c7ed6', width: 2 },
  { library: 'onnxruntime-web', threads: 2, label: 'onnxruntime-web, 2 threads', color: '#1c7ed6', width: 2, dash: '6 4' },
  { library: 'tfjs-backend-wasm', threads: 1, label: 'tfjs-backend-wasm', color: '#2f9e44', width: 2 },
  { library: 'plain JS', threads: 1, label: 'plain JS', color: '#9c36b5', width: 2 },
];

const PANEL = { width: 300, height: 220, left: 52, top: 70, gap: 34 };

/** A round axis maximum at or above max, and its tick step. */
function niceAxis(max) {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  return { top: Math.ceil(max / step) * step, step };
}

/** The value of a series in one measured configuration (null when it was not timed). */
function pointOf(series, m) {
  const row =
    series.form !== undefined
      ? m.rows.find((r) => r.library === series.library && r.form === series.form && r.threads === series.threads && !r.error)
      : bestOf(m.rows, series.library, series.threads);
  return row ? row.rate : null;
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The SVG text for measured sdpa configurations (those with chart: { panel, x }). */
export function chartSvg(measured, { subtitle }) {
  const charted = measured.filter((m) => m.chart);
  const panels = [...new Set(charted.map((m) => m.chart.panel))];
  const xs = [...new Set(charted.map((m) => m.chart.x))].sort((a, b) => a - b);
  const values = charted.flatMap((m) => SERIES.map((s) => pointOf(s, m))).filter((v) => v !== null);
  const { top, step } = niceAxis(Math.max(1, ...values));
  const width = PANEL.left + panels.length * (PANEL.width + PANEL.gap) + 10;
  const legendTop = PANEL.top + PANEL.height + 48;
  const height = legendTop + Math.ceil(SERIES.length / 3) * 20;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<style>
  .bg { fill: #ffffff; } .ink { fill: #1f2328; } .soft { fill: #59636e; } .grid { stroke: #d1d9e0; } .axis { stroke: #59636e; }
  @media (prefers-color-scheme: dark) {
    .bg { fill: #0d1117; } .ink { fill: #e6edf3; } .soft { fill: #9198a1; } .grid { stroke: #30363d; } .axis { stroke: #9198a1; }
  }
</style>`);
  out.push(`<rect class="bg" x="0" y="0" width="${width}" height="${height}" rx="8"/>`);
  out.push(`<text class="ink" x="${PANEL.left}" y="20" font-size="14" font-weight="600">Scaled dot-product attention in WebAssembly: GFLOP/s (higher is better)</text>`);
  out.push(`<text class="soft" x="${PANEL.left}" y="36">${esc(subtitle)}</text>`);
  panels.forEach((panel, p) => {
    const x0 = PANEL.left + p * (PANEL.width + PANEL.gap);
    const y0 = PANEL.top;
    const px = (i) => x0 + 16 + (i * (PANEL.width - 32)) / Math.max(1, xs.length - 1);
    const py = (v) => y0 + PANEL.height - (v / top) * PANEL.height;
    out.push(`<text class="ink" x="${x0 + PANEL.width / 2}" y="${y0 - 12}" text-anchor="middle" font-weight="600">${esc(panel)}</text>`);
    for (let v = 0; v <= top + 1e-9; v += step) {
      out.push(`<line class="grid" x1="${x0}" x2="${x0 + PANEL.width}" y1="${py(v)}" y2="${py(v)}"/>`);
      if (p === 0) out.push(`<text class="soft" x="${x0 - 6}" y="${py(v) + 4}" text-anchor="end">${+v.toFixed(2)}</text>`);
    }
    out.push(`<line class="axis" x1="${x0}" x2="${x0 + PANEL.width}" y1="${py(0)}" y2="${py(0)}"/>`);
    out.push(`<line class="axis" x1="${x0}" x2="${x0}" y1="${y0}" y2="${py(0)}"/>`);
    xs.forEach((x, i) => out.push(`<text class="soft" x="${px(i)}" y="${py(0) + 16}" text-anchor="middle">${x}</text>`));
    out.push(`<text class="soft" x="${x0 + PANEL.width / 2}" y="${py(0) + 32}" text-anchor="middle">sequence length Tq = Tk</text>`);
    for (const s of SERIES) {
      const points = xs
        .map((x, i) => [i, charted.find((m) => m.chart.panel === panel && m.chart.x === x)])
        .map(([i, m]) => (m ? [px(i), pointOf(s, m)] : null))
        .filter((pt) => pt && pt[1] !== null)
        .map(([x, v]) => [x, py(v)]);
      if (!points.length) continue;
      const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
      out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="${s.width}"${dash} points="${points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}"/>`);
      // dashed series get hollow markers, so two lines of one colour stay apart where they meet
      const marker = s.dash ? `class="bg" stroke="${s.color}" stroke-width="1.5"` : `fill="${s.color}"`;
      for (const [x, y] of points) out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3" ${marker}/>`);
    }
  });
  out.push(`<text class="soft" transform="translate(14 ${PANEL.top + PANEL.height / 2}) rotate(-90)" text-anchor="middle">GFLOP/s</text>`);
  SERIES.forEach((s, i) => {
    const x = PANEL.left + (i % 3) * 330;
    const y = legendTop + Math.floor(i / 3) * 20;
    const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
    out.push(`<line x1="${x}" x2="${x + 26}" y1="${y}" y2="${y}" stroke="${s.color}" stroke-width="${s.width}"${dash}/>`);
    out.push(`<text class="ink" x="${x + 32}" y="${y + 4}">${esc(s.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
