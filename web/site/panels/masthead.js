// The masthead: brand, presets, the view switch, the theme toggle and the share button.
import { h } from '../../figures/dom.js';
import { segmented } from './widgets.js';
import { PRESETS } from '../../model/presets/index.js';
import { presetPage } from '../page-state.js';
import { shareUrl } from '../url.js';
import { download, fileName } from '../../figures/export/download.js';
import { stagesJson } from '../../figures/export/tables.js';

const brand = {
  id: 'brand',
  slot: 'masthead',
  order: 0,
  mount(container) {
    container.className = 'brand';
    // Static markup: the mark is four cells of a tiny attention matrix.
    container.innerHTML = `<svg class="brand-mark" viewBox="0 0 22 22" aria-hidden="true"><rect width="22" height="22" rx="6" fill="var(--accent)"/><rect x="5" y="5" width="5" height="5" rx="1.2" fill="var(--accent-ink)"/><rect x="12" y="5" width="5" height="5" rx="1.2" fill="var(--accent-ink)" opacity=".35"/><rect x="5" y="12" width="5" height="5" rx="1.2" fill="var(--accent-ink)" opacity=".6"/><rect x="12" y="12" width="5" height="5" rx="1.2" fill="var(--accent-ink)" opacity=".15"/></svg>
      <span>attention-lab</span><small>every number of attention, exactly</small>`;
    return { update() {} };
  },
};

const presets = {
  id: 'presets',
  slot: 'masthead',
  order: 10,
  mount(container, { store }) {
    let draws = 0;
    const pick = (id) => {
      // Picking "random" again draws a new example; the seed goes into the state (and the link).
      draws = id === 'random' && store.get().preset === 'random' ? draws + 1 : 0;
      store.update(() => presetPage(id, { seed: 7 + draws }));
    };
    const control = segmented('preset', PRESETS.map((p) => [p.id, p.title, p.summary]), pick, { label: 'Preset' });
    container.className = 'masthead-presets';
    container.append(control.node);
    return { update: (state) => control.set(state.preset) };
  },
};

const views = {
  id: 'view-switch',
  slot: 'masthead',
  order: 20,
  mount(container, { store }) {
    const control = segmented('view', [['matrix', 'Matrix'], ['heatmap', 'Heatmap'], ['links', 'Links']], (view) => store.update({ view }), { label: 'View' });
    container.append(control.node);
    return { update: (state) => control.set(state.view) };
  },
};

const THEMES = ['system', 'light', 'dark'];
const theme = {
  id: 'theme',
  slot: 'masthead',
  order: 30,
  mount(container) {
    const saved = () => document.documentElement.dataset.theme ?? 'system';
    const button = h('button', { type: 'button', class: 'icon-button', onclick: () => apply(THEMES[(THEMES.indexOf(saved()) + 1) % THEMES.length]) });
    function apply(choice) {
      if (choice === 'system') delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = choice;
      try { localStorage.setItem('attnlab-theme', choice); } catch { /* private mode: the choice lasts this visit */ }
      const [icon, word] = { system: ['◐', 'Auto'], light: ['☀', 'Light'], dark: ['☾', 'Dark'] }[choice];
      button.textContent = `${icon} ${word}`;
      // The name holds the word shown (Label in Name: speech control says what it sees).
      button.setAttribute('aria-label', `Theme: ${word}${choice === 'system' ? ', as the system' : ''} (click to change)`);
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
  mount(container, { store, announce }) {
    const button = h('button', { type: 'button', class: 'button-primary', onclick: copy }, 'Copy link');
    async function copy() {
      const url = shareUrl(window.location, store.get());
      try {
        await navigator.clipboard.writeText(url);
        button.textContent = 'Copied ✓';
        announce('Link copied: it restores this exact state');
      } catch {
        window.prompt('Copy this link (it restores this exact state):', url);
      }
      setTimeout(() => { button.textContent = 'Copy link'; }, 1600);
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
  mount(container, { announce }) {
    let last = null;
    const button = h('button', {
      type: 'button', class: 'icon-button', title: 'Download every matrix on the page, with the state, as JSON', 'aria-label': 'Download all stages as JSON',
      onclick: () => {
        if (!last?.result) return;
        const ctx = { state: last.state, result: last.result, head: last.state.head };
        download(new Blob([stagesJson(ctx)], { type: 'application/json' }), fileName([last.state.preset, 'stages'], 'json'));
        announce('JSON of every stage downloaded');
      },
    }, '⤓ JSON');
    container.append(button);
    return { update: (state, result) => { last = { state, result }; } };
  },
};

export const mastheadPanels = [brand, presets, views, theme, data, share];
