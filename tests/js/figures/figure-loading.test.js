// What a pipeline figure loads (figures/pipeline/load.js, the path of the figures entry's
// pipeline() and of <attn-figure>): the backward pass's compute and stages only for a figure that
// shows a gradient, the heatmap and links views only for those views. Each module is mocked by
// itself (the original, with a note that it was imported), so a test sees which ones were loaded.
import { describe, expect, it, vi } from 'vitest';
import { stageIds } from '../../../web/figures/index.js';
import { loadFigure } from '../../../web/figures/pipeline/load.js';

const loaded = vi.hoisted(() => []);
vi.mock('../../../web/model/compute/backward.js', async (importOriginal) => {
  loaded.push('compute/backward.js');
  return importOriginal();
});
vi.mock('../../../web/model/stages/backward.js', async (importOriginal) => {
  loaded.push('stages/backward.js');
  return importOriginal();
});
vi.mock('../../../web/figures/pipeline/gallery.js', async (importOriginal) => {
  loaded.push('gallery.js');
  return importOriginal();
});

// In order: each test relies on what the one before it has not loaded yet.
describe('loading a pipeline figure', () => {
  it('a forward-only figure (and stageIds) loads neither the backward pass nor the gallery', async () => {
    const { state, backward, parts } = await loadFigure({ preset: 'd2l', stages: ['weights', 'output'] });
    expect(state.preset).toBe('d2l');
    expect(backward).toBeNull();
    expect(parts).toEqual({ registerBackwardStages: undefined, galleryView: undefined });
    await loadFigure({ preset: 'seed-004' });
    expect(await stageIds()).toContain('dwo'); // the backward ids are known without their stages
    expect(loaded).toEqual([]);
  });

  it('a heatmap view loads the gallery, still no backward pass', async () => {
    const { parts } = await loadFigure({ preset: 'seed-004', view: 'heatmap' });
    expect(typeof parts.galleryView).toBe('function');
    expect(loaded).toEqual(['gallery.js']);
  });

  it('a figure with a backward stage (or backward: true) loads both backward modules once', async () => {
    const { backward, parts } = await loadFigure({ preset: 'seed-004', stages: ['weights', 'dq'] });
    expect(typeof backward).toBe('function');
    expect(typeof parts.registerBackwardStages).toBe('function');
    await loadFigure({ preset: 'seed-004', backward: true });
    expect(loaded.slice(1).sort()).toEqual(['compute/backward.js', 'stages/backward.js']);
  });
});
