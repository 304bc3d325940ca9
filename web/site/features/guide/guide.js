// The embedding guide (guide.html): draws content.js, each example as its code and, below it,
// the same code live; the elements come from the package's own entry, as a reader's page gets them.
// The language is the explorer's: ?lang=, else the browser's; the switch in the header opens the
// page again with ?lang= (and the explorer's link keeps it).
import '../../styles/tokens.css';
import '../../styles/base.css';
import '../../styles/controls.css';
import './guide.css';
import '../../../elements/index.js';
import { AttnTraining } from '../../../elements/attn-training.js';
import { h } from '../../../figures/dom.js';
import { guideSections } from './content.js';
import { frameHeight } from '../embed/height-listener.js';
import { copyButton } from '../../controls/copy-button.js';
import { segmented } from '../../panels/widgets.js';
import { languageOf } from '../../url.js';
import { LANGUAGES, pickLanguage, t } from '../../../i18n/index.js';
// The trained model's attentions (tools/model/train_induction.py), for the file examples.
import inductionUrl from '../../../../examples/induction/attention.safetensors?url';

// <attn-training> is not in the elements' entry yet, and package.json names only that entry as
// having side effects: a bare import of its module would be dropped by the build, so define it here.
if (!customElements.get('attn-training')) customElements.define('attn-training', AttnTraining);

const lang = languageOf(window.location) ?? pickLanguage(navigator.languages ?? [navigator.language]);
const say = (key, params) => t(lang, key, params);
document.documentElement.lang = lang;
document.title = say('guide.page-title');
document.querySelector('meta[name="description"]')?.setAttribute('content', say('guide.page-description'));

const here = (file) => new URL(file, window.location.href).href;
const sections = guideSections({ elementsUrl: here('./elements.js'), embedUrl: here('./embed.html'), inductionUrl, lang });

// Copy buttons say what they did here (read out by screen readers).
const announcer = document.body.appendChild(h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' }));
const announce = (message) => {
  announcer.textContent = message;
};

// A code block scrolls sideways when its lines are long: focusable, so a keyboard can scroll it,
// and named, so a screen reader says what the focus landed on. Its Copy button copies it whole.
function codeBlock(text, label) {
  const code = h('code', {}, text);
  const copy = copyButton(
    code,
    announce,
    label,
    { class: 'guide-copy', 'aria-label': t(lang, 'guide.code-copy-label', { what: label }) },
    {
      copy: t(lang, 'guide.code-copy'),
      copied: `${t(lang, 'guide.code-copied')} ✓`,
      done: t(lang, 'guide.code-copied'),
      failed: t(lang, 'guide.code-copy-failed'),
    },
  );
  return h('div', { class: 'guide-code-block' }, h('pre', { class: 'guide-code', tabindex: 0, role: 'group', 'aria-label': label }, code), copy);
}

/** Trusted HTML (the guide's own text and examples, nothing from the address) in a new element. */
function trusted(tag, className, html) {
  const node = h(tag, { class: className });
  node.innerHTML = html;
  return node;
}

// The live examples' elements speak the page's language (their lang attribute, as a reader sets it).
const ELEMENTS = 'attn-figure, attn-heatmap, attn-heads, attn-training';
function liveBlock(html, className) {
  const live = trusted('div', className, html);
  for (const element of live.querySelectorAll(ELEMENTS)) if (!element.hasAttribute('lang')) element.setAttribute('lang', lang);
  return live;
}

/** A table's values: code, and words in the page's language, separated by dots. */
const valuesCell = (values) =>
  h(
    'td',
    {},
    values.flatMap((v, i) => [i ? ' · ' : null, v.code === undefined ? v.text : h('code', {}, v.code)]),
  );

function attributeTable(rows) {
  return h(
    'table',
    { class: 'guide-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['attribute', 'values', 'meaning'].map((column) => h('th', { scope: 'col' }, say(`guide.table.${column}`))),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map(([name, values, meaning]) => h('tr', {}, h('th', { scope: 'row' }, h('code', {}, name)), valuesCell(values), trusted('td', '', meaning))),
    ),
  );
}

/** A section's blocks; its code blocks are named after the section and numbered. */
function blocks(section) {
  let codes = 0;
  const codeLabel = () => say('guide.code-label', { section: section.title, n: ++codes });
  return section.blocks.map((item) => block(item, codeLabel));
}

function block(item, codeLabel) {
  if (item.p) return trusted('div', 'guide-prose', item.p);
  if (item.h) return trusted('h3', 'guide-subhead', item.h);
  if (item.code) return codeBlock(item.code, codeLabel());
  if (item.table) return attributeTable(item.table);
  if (item.example) return h('div', { class: 'guide-example' }, codeBlock(item.example, codeLabel()), liveBlock(item.example, 'guide-live'));
  if (item.post) return h('article', { class: 'guide-post' }, liveBlock(item.post, 'guide-post-body'));
  throw new TypeError(`guide: unknown block ${Object.keys(item)}`);
}

const guide = document.getElementById('guide');
guide.replaceChildren(
  h('header', { class: 'guide-intro' }, h('h1', {}, say('guide.title')), h('p', { class: 'guide-lede' }, say('guide.lede'))),
  ...sections.map((section) =>
    h(
      'section',
      { class: 'guide-section', id: section.id, 'aria-labelledby': `${section.id}-title` },
      h('h2', { id: `${section.id}-title` }, section.title),
      blocks(section),
    ),
  ),
);

const nav = document.querySelector('.guide-nav');
nav.setAttribute('aria-label', say('guide.nav-label'));
nav.replaceChildren(...sections.map((s) => h('a', { href: `#${s.id}` }, s.title)));
// The explorer in this language.
document.querySelector('.guide-brand').href = `./index.html?lang=${lang}`;
const head = document.querySelector('.guide-head');
head.insertBefore(languageSwitch(), nav);
// A section's title scrolls to just below the sticky header, however many lines its links take.
new ResizeObserver(() => document.documentElement.style.setProperty('--guide-head-height', `${head.offsetHeight}px`)).observe(head);

/** The language switch, as the explorer's masthead has it: each language named in itself. */
function languageSwitch() {
  const NAMES = { en: 'English', 'zh-CN': '中文' };
  const FOCUS = 'attnlab-focus-language';
  const control = segmented(
    'language',
    LANGUAGES.map((l) => [l, NAMES[l]]),
    (next) => {
      if (next === lang) return;
      try {
        sessionStorage.setItem(FOCUS, '1'); // the page opens again: the focus comes back here
      } catch {
        /* private mode: the focus starts at the top */
      }
      const url = new URL(window.location.href);
      url.searchParams.set('lang', next);
      window.location.replace(url.href);
    },
    { label: say('site.language-label') },
  );
  for (const button of control.node.children) button.lang = button.dataset.value;
  control.set(lang);
  control.node.classList.add('guide-language');
  try {
    if (sessionStorage.getItem(FOCUS)) {
      sessionStorage.removeItem(FOCUS);
      requestAnimationFrame(() => control.node.querySelector('[aria-checked="true"]').focus());
    }
  } catch {
    /* no storage: nothing to restore */
  }
  return control.node;
}

// The iframe examples resize to their figures (the snippet the guide shows, run here).
window.addEventListener('message', (event) => {
  const height = frameHeight(event.data);
  if (height === null) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) frame.style.height = `${height}px`;
  }
});
