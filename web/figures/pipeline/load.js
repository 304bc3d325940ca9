// What a figure spec needs, loaded on demand for pipeline() and <attn-figure> alike: its preset,
// the backward pass only when shown, the gallery only for the heatmap and links views, the words
// of spec.lang when they load on demand (zh-CN).
import { loadWords, onDemand } from '../../i18n/languages.js';
import { wantsBackward } from './figure.js';
import { loadPipelineState } from './state.js';

/** -> Promise<{ state, backward (backwardPass or null), parts (renderPipeline's) }>; rejects as pipelineState throws. */
export async function loadFigure(spec = {}) {
  const [backward, backwardStages] = wantsBackward(spec)
    ? await Promise.all([import('../../model/compute/backward.js'), import('../../model/stages/backward.js')])
    : [];
  // A lang that is neither en nor zh-CN is renderPipeline's to name.
  if (onDemand(spec.lang)) await Promise.all([loadWords(spec.lang, 'figure'), loadWords(spec.lang, 'stage')]);
  const state = await loadPipelineState(spec);
  const galleryView = state.view === 'matrix' ? undefined : (await import('./gallery.js')).galleryView;
  return { state, backward: backward?.backwardPass ?? null, parts: { registerBackwardStages: backwardStages?.registerBackwardStages, galleryView } };
}
