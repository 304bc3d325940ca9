// The explorer's entry: styles, registries (stages and panels), the wasm core through the
// public API, then the app.
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/intro.css';
import './styles/pipeline.css';
import './styles/editing.css';
import './explain/explain.css';
import './styles/gallery.css';
import './styles/card-tools.css';
import './features/check/check.css';
import './features/import/import.css';
import './styles/panel-card.css';
import './features/train/train.css';
import './features/generate/generate.css';
import './features/speed/speed.css';
import './features/lab/lab.css';
import '../figures/figures.css';
import { loadAttention, simdSupported } from '../src/index.js';
import { pickLanguage, t } from '../i18n/index.js';
import { loadWords } from '../i18n/languages.js';
import { languageOf } from './url.js';
import { startApp } from './app.js';
import { trackMastheadHeight } from './controls/masthead-height.js';
import { registerCorePanels } from './panels/index.js';
import { registerCoreStages } from '../model/stages/index.js';

const byId = (id) => document.getElementById(id);

// The language: ?lang= when the link gives one, else the browser's (zh* -> zh-CN, else en).
const lang = languageOf(window.location) ?? pickLanguage(navigator.languages ?? [navigator.language]);
document.documentElement.lang = lang;

/** index.html's own text in the page's language (the panels translate their own). */
function translateStatic(tr) {
  document.title = tr('site.page-title');
  document.querySelector('meta[name="description"]').content = tr('site.page-description');
  document.querySelector('.skip-link').textContent = tr('site.skip-link');
  document.querySelector('aside.controls').setAttribute('aria-label', tr('site.controls'));
  document
    .querySelector('.controls-summary')
    .replaceChildren(tr('site.controls'), ' ', Object.assign(document.createElement('span'), { textContent: tr('site.controls-summary') }));
  byId('explain').setAttribute('aria-label', tr('site.explain-label'));
  const loading = document.querySelector('#views .loading');
  if (loading) loading.textContent = tr('site.loading');
}
translateStatic((key) => t(lang, key));

// Phones see the pipeline first; the controls fold into a disclosure (open on wider screens).
byId('controls-details').open = !window.matchMedia('(max-width: 759px)').matches;

registerCoreStages();
registerCorePanels();
trackMastheadHeight(byId('masthead'));

const dom = {
  masthead: byId('masthead'),
  controls: byId('controls'),
  notes: byId('notes'),
  main: byId('views'),
  views: byId('views'),
  aside: byId('explain'),
  footer: byId('footer'),
  announcer: byId('announcer'),
  translate: translateStatic,
};

// Performance marks (tests read them): the core loaded, the first render in the DOM, and the
// frame after it (painted). Their startTime counts from the navigation start.
try {
  // The SIMD build, never the relaxed one (FMA): the explorer's numbers are the same on every machine.
  // The figures' and stages' words in the page's language load beside the core (zh-CN's on demand).
  const [attn] = await Promise.all([loadAttention({ simd: simdSupported() }), loadWords(lang, 'figure'), loadWords(lang, 'stage')]);
  performance.mark('attnlab:core-loaded');
  window.attentionLab = startApp(attn, dom, lang); // for the console and for end-to-end tests
  performance.mark('attnlab:first-render');
  requestAnimationFrame(() => setTimeout(() => performance.mark('attnlab:first-paint'), 0));
} catch (error) {
  dom.views.replaceChildren(
    Object.assign(document.createElement('p'), {
      className: 'error-box',
      textContent: t(lang, 'site.core-failed', { message: error.message }),
    }),
  );
  throw error;
}
