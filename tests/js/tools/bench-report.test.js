// What npm run bench reports besides its tables (tools/bench/lib/report.mjs): the name of each of
// our modules in the run's header (with attn.build where the API has it), and the targets read from
// a table (ours over the fastest form of each peer, per build of ours).
import { describe, expect, it } from 'vitest';
import { moduleText, targetLines } from '../../../tools/bench/lib/report.mjs';

describe('moduleText: one of our modules as the header names it', () => {
  it('names the backend, the arch and the threads, and the build where attn.build names one', () => {
    expect(moduleText({ backend: 'wasm-simd', arch: 'wasm' })).toBe("wasm-simd ('wasm', 1 thread)");
    expect(moduleText({ backend: 'wasm-simd', arch: 'wasm', threads: 2 })).toBe("wasm-simd ('wasm', 2 threads)");
    expect(moduleText({ backend: 'wasm-relaxed', arch: 'wasm+relaxed', build: 'relaxed-2x4' })).toBe(
      "wasm-relaxed ('wasm+relaxed', 1 thread, build relaxed-2x4)",
    );
    expect(moduleText({ backend: 'wasm-relaxed', arch: 'wasm+relaxed', build: { name: 'relaxed-2x4' } })).toBe(
      "wasm-relaxed ('wasm+relaxed', 1 thread, build relaxed-2x4)",
    );
  });

  it('prints no calibration and no empty build', () => {
    const text = moduleText({ backend: 'wasm-relaxed', arch: 'wasm+relaxed', build: '', kernel: { tile: '6x2', chosenBy: 'calibrated' } });
    expect(text).toBe("wasm-relaxed ('wasm+relaxed', 1 thread)");
  });
});

describe('targetLines: ours over each peer at its fastest form, per build of ours', () => {
  const row = (library, form, ms, threads = 1) => ({ library, form, threads, ms, rate: 1000 / ms });
  const table = {
    title: 'sdpa forward, T=512',
    passKey: 'forward',
    rows: [
      row('attention-lab', 'wasm-simd', 10),
      row('attention-lab', 'wasm-relaxed', 8),
      row('attention-lab', 'wasm-simd', 6, 2), // the pool: never read for a one-thread target
      row('onnxruntime-web', 'op graph', 16),
      row('onnxruntime-web', 'Attention (opset 23)', 13),
      { library: 'onnxruntime-web', form: 'MultiHeadAttention', threads: 1, error: 'differs' },
      row('onnxruntime-web', 'Attention (opset 23)', 7, 2),
    ],
  };

  it("divides the peer's fastest one-thread time by each build's, and says whether the target is met", () => {
    const lines = targetLines([table]);
    expect(lines.map(({ build, peer, ratio, met }) => ({ build, peer, ratio, met }))).toEqual([
      { build: 'wasm-simd', peer: 'onnxruntime-web (Attention (opset 23), 1 thread)', ratio: 1.3, met: false },
      { build: 'wasm-relaxed', peer: 'onnxruntime-web (Attention (opset 23), 1 thread)', ratio: 1.625, met: true },
    ]);
    expect(lines.every((l) => l.target === 1.4)).toBe(true);
  });

  it('reads no target from a table without a pass, or one where a side was not timed', () => {
    expect(targetLines([{ ...table, passKey: undefined }])).toEqual([]);
    expect(targetLines([{ ...table, rows: table.rows.filter((r) => r.library !== 'onnxruntime-web' || r.threads === 2) }])).toEqual([]);
  });
});
