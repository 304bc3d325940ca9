// The bench's line about the products' tile (tools/bench/lib/report.mjs tileText), read from
// attn.kernel: what the run's header and results.md say about how each build's tile was chosen.
import { describe, expect, it } from 'vitest';
import { tileText } from '../../tools/bench/lib/report.mjs';

describe('tileText: how a build\'s tile was chosen, in words', () => {
  it('names the tile and how it was chosen, with each tile\'s fastest sample when calibrated', () => {
    expect(tileText({ tile: '2x4', chosenBy: 'only', calibration: null })).toBe("tile 2x4 (the build's only)");
    expect(tileText({ tile: '6x2', chosenBy: 'option', calibration: null })).toBe('tile 6x2 (named by the tile option)');
    const calibration = { sampleMs: { '2x4': 1.412, '6x2': 1.268 }, ratio: 0.898, reps: 40, warmUpMs: 90 };
    expect(tileText({ tile: '6x2', chosenBy: 'calibrated', calibration })).toBe('tile 6x2 (calibrated at load, ms a sample: 2x4 1.41, 6x2 1.27)');
    const steady = { ...calibration, rounds: 2, steady: true };
    expect(tileText({ tile: '6x2', chosenBy: 'calibrated', calibration: steady })).toBe('tile 6x2 (calibrated at load in 2 rounds, ms a sample: 2x4 1.41, 6x2 1.27)');
    const unsteady = { ...calibration, ratio: 1, rounds: 6, steady: false };
    expect(tileText({ tile: '2x4', chosenBy: 'calibrated', calibration: unsteady }))
      .toBe('tile 2x4 (calibrated at load in 6 rounds whose samples never agreed, so the default, ms a sample: 2x4 1.41, 6x2 1.27)');
  });

  it('says which attempt decided, or how many never agreed, where the calibration timed again', () => {
    const calibration = { sampleMs: { '2x4': 1.412, '6x2': 1.268 }, ratio: 0.898, reps: 40, warmUpMs: 90, rounds: 3, steady: true, attempts: 2 };
    expect(tileText({ tile: '6x2', chosenBy: 'calibrated', calibration }))
      .toBe('tile 6x2 (calibrated at load in 3 rounds of its second attempt, ms a sample: 2x4 1.41, 6x2 1.27)');
    const unsteady = { ...calibration, ratio: 1, rounds: 16, steady: false, attempts: 3 };
    expect(tileText({ tile: '2x4', chosenBy: 'calibrated', calibration: unsteady }))
      .toBe('tile 2x4 (calibrated at load in 3 attempts of 16 rounds whose samples never agreed, so the default, ms a sample: 2x4 1.41, 6x2 1.27)');
    expect(tileText({ tile: '6x2', chosenBy: 'calibrated', calibration: { ...calibration, attempts: 1 } }))
      .toBe('tile 6x2 (calibrated at load in 3 rounds, ms a sample: 2x4 1.41, 6x2 1.27)');
  });

  it('says so when the calibration has not settled or could not run, rather than reading a calibration that is null', () => {
    expect(tileText({ tile: '2x4', chosenBy: 'pending', calibration: null })).toBe("tile 2x4 (the build's default; its calibration still running)");
    expect(tileText({ tile: '2x4', chosenBy: 'default', calibration: null })).toBe("tile 2x4 (the build's default; its calibration could not run)");
  });
});
