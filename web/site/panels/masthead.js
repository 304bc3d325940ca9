// The masthead: brand, presets, the view switch, the theme toggle, the language switch and the
// share button.
import { h } from '../../figures/dom.js';
import { segmented } from './widgets.js';
import { LANGUAGES } from '../../i18n/index.js';
import { PRESETS } from '../../model/presets/index.js';
import { presetPage } from '../page-state.js';
import { shareUrl } from '../url.js';
import { download, fileName } from '../../figures/export/download.js';
import { stagesJson } from '../../figures/export/tables.js';

const brand = {
  id: 'brand',
  slot: 'masthead',
  order: 0,
  mount(container, { t }) {
    container.className = 'brand';
    // Static markup: the mark is four cells of a tiny attention matrix.
    container.innerHTML = `<svg class="brand-mark" viewBox="0 0 22 22" aria-hidden="true"><rect width="22" height="22" rx="6" fill="var(--accent)"/><rect x="5" y="5" width="5" height="5" rx="1.2" fill="var(--accent-ink)"/><rect x="12" y="5" width="5" height="5" rx="1.2" fill="var(--accent-ink)" opacity=".35"/><rect x="5" y="12" width="5" height="5" rx="1.2" fill="var(--accent-ink)" opacity=".6"/><rect x="12" y="12" width="5" height="5" rx="1.2" fill="var(--accent-ink)" opacity=".15"/></svg>
      <span>attention-lab</span><small></small>`;
    container.querySelector('small').textContent = t('site.brand-tagline');
    return { update() {} };
  },
};

const presets = {
  id: 'presets',
  slot: 'masthead',
  order: 10,
  mount(container, { store, t }) {
    let draws = 0;
    const pick = (id) => {
      // Picking "random" again draws a new example; the seed goes into the state (and the link).
      draws = id === 'random' && store.get().preset === 'random' ? draws + 1 : 0;
      store.update(() => presetPage(id, { seed: 7 + draws }));
    };
    const control = segmented(
      'preset',
      PRESETS.map((p) => [p.id, t(`preset.${p.id}.title`), t(`preset.${p.id}.summary`)]),
      pick,
      { label: t('site.preset-label') },
    );
    container.className = 'masthead-presets';
    container.append(control.node);
    // While the model view (a file opened with Open) stands in for the example (<html
    // data-model-view>), no preset is what the page shows: none is marked current.
    let preset = null;
    const mark = () => control.set(document.documentElement.hasAttribute('data-model-view') ? null : preset);
    new MutationObserver(mark).observe(document.documentElement, { attributes: true, attributeFilter: ['data-model-view'] });
    return {
      update(state) {
        preset = state.preset;
        mark();
      },
    };
  },
};

const views = {
  id: 'view-switch',
  slot: 'masthead',
  order: 20,
  mount(container, { store, t }) {
    const control = segmented(
      'view',
      ['matrix', 'heatmap', 'links'].map((v) => [v, t(`site.view.${v}`)]),
      (view) => store.update({ view }),
      { label: t('site.view-label') },
    );
    container.append(control.node);
    return { update: (state) => control.set(state.view) };
  },
};

const THEMES = ['system', 'light', 'dark'];
const theme = {
  id: 'theme',
  slot: 'masthead',
  order: 30,
  mount(container, { t }) {
    const saved = () => document.documentElement.dataset.theme ?? 'system';
    const button = h('button', { type: 'button', class: 'icon-button', onclick: () => apply(THEMES[(THEMES.indexOf(saved()) + 1) % THEMES.length]) });
    function apply(choice) {
      if (choice === 'system') delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = choice;
      try {
        localStorage.setItem('attnlab-theme', choice);
      } catch {
        /* private mode: the choice lasts this visit */
      }
      const icon = { system: '◐', light: '☀', dark: '☾' }[choice];
      const word = t(`site.theme.${choice}`);
      button.textContent = `${icon} ${word}`;
      // The name holds the word shown (Label in Name: speech control says what it sees).
      button.setAttribute('aria-label', t(choice === 'system' ? 'site.theme-label-system' : 'site.theme-label', { word }));
    }
    apply(saved());
    container.append(button);
    return { update() {} };
  },
};

const share = {
  id: 'share',
  slot: 'masthead',
  order: 40,
  mount(container, { store, announce, t, lang }) {
    const button = h('button', { type: 'button', class: 'button-primary', onclick: copy }, t('site.copy-link'));
    async function copy() {
      const url = shareUrl(window.location, store.get(), lang);
      try {
        await navigator.clipboard.writeText(url);
        button.textContent = t('site.copied');
        announce(t('site.link-copied'));
      } catch {
        window.prompt(t('site.copy-prompt'), url);
      }
      setTimeout(() => {
        button.textContent = t('site.copy-link');
      }, 1600);
    }
    container.append(button);
    return { update() {} };
  },
};

// Every stage of the page (the shown head) with the state that made it, as one JSON file.
const data = {
  id: 'data',
  slot: 'masthead',
  order: 35,
  mount(container, { announce, t }) {
    let last = null;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: t('site.json-title'),
        'aria-label': t('site.json-label'),
        onclick: () => {
          if (!last?.result) return;
          const ctx = { state: last.state, result: last.result, head: last.state.head };
          download(new Blob([stagesJson(ctx)], { type: 'application/json' }), fileName([last.state.preset, 'stages'], 'json'));
          announce(t('site.json-done'));
        },
      },
      '⤓ JSON',
    );
    container.append(button);
    return {
      update: (state, result) => {
        last = { state, result };
      },
    };
  },
};

// The page's language: each language named in itself (中文 reads as Chinese to a reader of either).
const LANGUAGE_NAMES = { en: 'English', 'zh-CN': '中文' };
const language = {
  id: 'language',
  slot: 'masthead',
  order: 32,
  mount(container, { lang, t, setLanguage }) {
    const FOCUS = 'attnlab-focus-language';
    const control = segmented(
      'language',
      LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l]]),
      (next) => {
        // The page opens again in the other language: the focus comes back to the switch.
        try {
          sessionStorage.setItem(FOCUS, '1');
        } catch {
          /* private mode: the focus starts at the top */
        }
        setLanguage(next);
      },
      { label: t('site.language-label') },
    );
    for (const button of control.node.children) button.lang = button.dataset.value;
    control.set(lang);
    container.append(control.node);
    try {
      if (sessionStorage.getItem(FOCUS)) {
        sessionStorage.removeItem(FOCUS);
        control.node.querySelector('[aria-checked="true"]').focus();
      }
    } catch {
      /* no storage: nothing to restore */
    }
    return { update() {} };
  },
};

export const mastheadPanels = [brand, presets, views, theme, language, data, share];
