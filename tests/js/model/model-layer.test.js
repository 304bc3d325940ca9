// The shipped model layer (web/model): compute() runs the backward pass only when asked, the
// figures ask only when they show a backward stage, and the example state holds no page-only
// parts (check mode, the speed panel), which the explorer adds in web/site/page-state.js.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { compute } from '../../../web/model/compute/index.js';
import { PRESETS, presetState } from '../../../web/model/presets/index.js';
import { conform } from '../../../web/model/state/conform.js';
import { loadFigure } from '../../../web/figures/pipeline/load.js';
import { ensureStages, stageFilter, stageIds, wantsBackward } from '../../../web/figures/pipeline/figure.js';
import { backwardPass } from '../../../web/model/compute/backward.js';
import { registerBackwardStages } from '../../../web/model/stages/backward.js';
import { BACKWARD_STAGES, BACKWARD_STAGE_IDS } from '../../../web/model/stages/groups.js';
import { allStages } from '../../../web/model/stages/registry.js';
import { conformPage, presetPage } from '../../../web/site/page-state.js';

let attn;
beforeAll(async () => {
  attn = await loadAttention();
});

// A copy of the (frozen) module whose named methods count their calls.
function counted(names) {
  const calls = Object.fromEntries(names.map((n) => [n, 0]));
  const module = { ...attn };
  for (const name of names) {
    module[name] = (...args) => {
      calls[name] += 1;
      return attn[name](...args);
    };
  }
  return { module, calls };
}

describe('compute() and the backward pass', () => {
  it('a forward-only compute runs neither the backward pass nor the layer that checks it', () => {
    const { module, calls } = counted(['attention', 'attentionBackward', 'selfAttention']);
    const result = compute(module, presetState('seed-004'));
    expect(result.backward).toBeUndefined();
    expect(calls.attention).toBeGreaterThan(0);
    expect(calls.attentionBackward).toBe(0);
    // The forward projects X through one selfAttention layer per head; the backward adds one more
    // (the layer whose backward() checks dW), so the same count from the backward call can fail.
    const forwardLayers = calls.selfAttention;
    compute(module, presetState('seed-004'), { backward: backwardPass });
    expect(calls.attentionBackward).toBe(1);
    expect(calls.selfAttention).toBe(2 * forwardLayers + 1);
  });

  it('compute with { backward: backwardPass } runs the backward pass and checks it against a layer', () => {
    const result = compute(attn, presetState('seed-004'), { backward: backwardPass });
    expect(result.backward.error).toBeUndefined();
    expect(result.backward.dq.shape).toEqual(result.heads[0].q.shape);
    expect(result.backward.agreements.length).toBeGreaterThan(0);
  });

  it('a figure asks for the backward pass exactly when it shows a backward stage', async () => {
    expect(wantsBackward({})).toBe(false);
    expect(wantsBackward({ stages: ['weights', 'output'] })).toBe(false);
    expect(wantsBackward({ stages: ['weights', 'dq'] })).toBe(true);
    expect(wantsBackward({ backward: true })).toBe(true);
    const forward = await loadFigure({ preset: 'seed-004', stages: ['weights'] });
    expect(forward.backward).toBeNull();
    expect(forward.parts.registerBackwardStages).toBeUndefined();
    expect(compute(attn, forward.state, { backward: forward.backward }).backward).toBeUndefined();
    const gradient = await loadFigure({ preset: 'seed-004', stages: ['d-scores'] });
    expect(gradient.backward).toBe(backwardPass);
    expect(gradient.parts.registerBackwardStages).toBe(registerBackwardStages);
    expect(compute(attn, gradient.state, { backward: gradient.backward }).backward.dS).toBeDefined();
  });

  it('a figure knows the backward stage ids before their stages are registered, which then register under those ids', () => {
    ensureStages(); // what a forward-only <attn-figure> registers
    expect(allStages().filter((s) => BACKWARD_STAGE_IDS.has(s.id))).toEqual([]);
    const ids = stageIds();
    expect(ids.slice(-BACKWARD_STAGE_IDS.size)).toEqual([...BACKWARD_STAGE_IDS]);
    expect(wantsBackward({ stages: ['weights', 'target'] })).toBe(true);
    expect(() => stageFilter({ stages: ['dwo'] })).not.toThrow();
    ensureStages(registerBackwardStages);
    ensureStages(registerBackwardStages); // once per page, however many figures ask
    for (const [band, bandIds] of Object.entries(BACKWARD_STAGES)) {
      expect(
        allStages()
          .filter((s) => s.group === band)
          .map((s) => s.id),
      ).toEqual(bandIds);
    }
    expect(stageIds()).toEqual(ids);
  });
});

describe('the example state and the page state', () => {
  it('conform drops the page-only parts; conformPage keeps them, conformed', () => {
    const raw = {
      ...presetState('seed-004'),
      checks: { weights: [[['0.5']]] },
      speed: { T: 1e9, d: 64, heads: 2 },
      // Only a stage in check mode can be checked, and only as 'checked' or 'revealed'.
      checked: { weights: 'checked', output: 'checked', q: 'maybe' },
    };
    const example = conform(raw);
    expect(example).not.toHaveProperty('checks');
    expect(example).not.toHaveProperty('checked');
    expect(example).not.toHaveProperty('speed');
    const page = conformPage(raw);
    expect(page.checks).toEqual({ weights: [[['0.5']]] });
    expect(page.checked).toEqual({ weights: 'checked' });
    expect(page.speed).toEqual({ T: 1024, d: 64, heads: 2 });
    expect({ ...page, checks: undefined, checked: undefined, speed: undefined }).toEqual({
      ...example,
      checks: undefined,
      checked: undefined,
      speed: undefined,
    });
  });

  it("each preset loads on its own by id (an <attn-figure>'s path) and gives the state the full registry gives", async () => {
    vi.resetModules(); // a fresh catalog, as a page that never imported presets/index.js has
    const catalog = await import('../../../web/model/presets/catalog.js');
    expect(catalog.PRESET_IDS).toEqual(PRESETS.map((p) => p.id));
    // Only Node gives a fresh module here: the browser keeps its one ES module instance, whose
    // catalog this file's import of presets/index.js has filled already.
    if (typeof window === 'undefined') expect(() => catalog.presetState('d2l')).toThrow(/not loaded/);
    for (const id of catalog.PRESET_IDS) {
      await catalog.loadPreset(id);
      expect(catalog.presetState(id)).toEqual(presetState(id));
    }
    await catalog.loadPreset('no-such-preset'); // loads nothing: pipelineState names the known ids
    expect(catalog.presetById('no-such-preset')).toBeNull();
  });

  it("the seed-002 preset brings the text's printed numbers to check mode in the page only", () => {
    expect(presetState('seed-002')).not.toHaveProperty('checks');
    expect(Object.keys(presetPage('seed-002').checks).length).toBeGreaterThan(0);
    // ...checked already, so the page opens with the marks and the diagnosis.
    expect(Object.values(presetPage('seed-002').checked)).toEqual(Array(7).fill('checked'));
  });
});

describe('the one store', () => {
  it('conforms every edit and tells its listeners once per frame, however many edits came in it', async () => {
    const { createStore } = await import('../../../web/model/state/store.js');
    const frames = [];
    const store = createStore(presetState('seed-004'), { conform, schedule: (fn) => frames.push(fn) });
    const seen = [];
    store.subscribe((state) => seen.push(state.head));
    store.update({ heads: 3 });
    store.update((s) => ({ ...s, head: 9 }));
    expect(frames).toHaveLength(1);
    expect(seen).toEqual([]);
    frames[0]();
    expect(seen).toEqual([2]); // head 9 conformed into [0, H - 1]
    expect(store.get().heads).toBe(3);
  });
});
