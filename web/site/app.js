// Boots the explorer: mounts every registered panel into its slot, recomputes the state through
// the API once per frame with edits, and keeps the URL in step with the state. The page's language
// (app.lang, its messages through app.t) is set before the panels mount; changing it
// (app.setLanguage, the masthead's switch) opens this state's link in the new language: a panel
// may register things once per page (the import feature's figure actions), so mounting again
// in place would register them twice.
import { t } from '../i18n/index.js';
import { compute } from '../model/compute/index.js';
import { backwardPass } from '../model/compute/backward.js';
import { h } from '../figures/dom.js';
import { DEFAULT_PRESET } from '../model/presets/index.js';
import { conformPage, presetPage } from './page-state.js';
import { panelsIn } from './panels/registry.js';
import { setStageLanguage } from '../model/stages/registry.js';
import { createStore } from '../model/state/store.js';
import { decodeState, readLocation, shareUrl } from './url.js';

const SLOTS = ['masthead', 'controls', 'notes', 'main', 'aside', 'footer'];

/** The state a URL asks for; a damaged link falls back to the default preset (and says so). */
function initialState(location, warnings) {
  try {
    const { state, preset } = readLocation(location);
    return state ?? presetPage(preset ?? DEFAULT_PRESET);
  } catch (error) {
    warnings.push(['site.link-unreadable', { message: error.message }]);
    return presetPage(DEFAULT_PRESET);
  }
}

/** lang: 'en' or 'zh-CN'; dom.translate(t) fills the page's static text (index.html) in it. */
export function startApp(attn, dom, lang) {
  const warnings = [];
  const store = createStore(initialState(window.location, warnings), { conform: conformPage, schedule: requestAnimationFrame });
  const announce = (message) => {
    dom.announcer.textContent = message;
  };
  const app = { attn, store, dom, announce, lang, t: (key, params) => t(app.lang, key, params), setLanguage };

  let mounted = [];
  function mountPanels() {
    document.documentElement.lang = app.lang;
    setStageLanguage(app.lang);
    dom.translate?.(app.t);
    mounted = [];
    for (const slot of SLOTS) {
      const host = dom[slot];
      host.replaceChildren();
      for (const panel of panelsIn(slot)) {
        const container = host.appendChild(h(slot === 'masthead' || slot === 'main' ? 'div' : 'section', { class: `panel panel-${panel.id}` }));
        mounted.push(panel.mount(container, app));
      }
    }
    for (const [key, params] of warnings) dom.notes.prepend(h('p', { class: 'error-box', role: 'alert' }, app.t(key, params)));
  }

  /** Shows the page in `next` ('en', 'zh-CN'): the same state's link, in that language. */
  function setLanguage(next) {
    if (next === app.lang) return;
    window.location.replace(shareUrl(window.location, store.get(), next));
  }

  mountPanels();

  let urlTimer = 0;
  function render(state) {
    let result = null;
    let error = null;
    try {
      result = compute(attn, state, { backward: backwardPass });
    } catch (e) {
      error = e;
      console.warn('attention-lab explorer: compute failed', e);
    }
    for (const panel of mounted) panel.update(state, result, error);
    // The address bar always holds the link to this state (throttled: browsers limit replaceState).
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => history.replaceState(null, '', shareUrl(window.location, state, app.lang)), 250);
  }

  store.subscribe(render);
  window.addEventListener('hashchange', () => {
    try {
      const state = decodeState(window.location.hash);
      if (state && JSON.stringify(state) !== JSON.stringify(store.get())) store.update(() => state);
    } catch {
      /* a hand-edited hash that does not parse: keep the current state */
    }
  });
  render(store.get());
  return app;
}
