// The embedding guide (guide.html): draws content.js, each example as its code and, below it,
// the same code live; the elements come from the package's own entry, as a reader's page gets them.
import '../../styles/tokens.css';
import '../../styles/base.css';
import './guide.css';
import '../../../elements/index.js';
import { h } from '../../../figures/dom.js';
import { guideSections } from './content.js';
import { frameHeight } from '../embed/height-listener.js';
import { copyButton } from '../../controls/copy-button.js';
import { knownLanguage, pickLanguage, t } from '../../../i18n/index.js';
// The trained model's attentions (tools/model/train_induction.py), for the file examples.
import inductionUrl from '../../../../examples/induction/attention.safetensors?url';

const here = (file) => new URL(file, window.location.href).href;
const sections = guideSections({ elementsUrl: here('./elements.js'), embedUrl: here('./embed.html'), inductionUrl });

// The page's language: ?lang=, else the browser's.
const lang = knownLanguage(new URLSearchParams(window.location.search).get('lang')) ?? pickLanguage(navigator.languages ?? [navigator.language]);
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

function liveBlock(html, className) {
  const live = h('div', { class: className });
  live.innerHTML = html; // the guide's own examples (content.js), nothing from the address
  return live;
}

function attributeTable(rows) {
  return h(
    'table',
    { class: 'guide-table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Attribute'), h('th', { scope: 'col' }, 'Values'), h('th', { scope: 'col' }, 'What it does'))),
    h(
      'tbody',
      {},
      rows.map(([name, values, meaning]) => h('tr', {}, h('th', { scope: 'row' }, h('code', {}, name)), h('td', {}, values), h('td', {}, meaning))),
    ),
  );
}

/** A section's blocks; its code blocks are named after the section and numbered. */
function blocks(section) {
  let codes = 0;
  const codeLabel = () => `${section.title}: code ${++codes}`;
  return section.blocks.map((item) => block(item, codeLabel));
}

function block(item, codeLabel) {
  if (item.p) return liveBlock(item.p, 'guide-prose');
  if (item.h) return h('h3', { class: 'guide-subhead' }, item.h);
  if (item.code) return codeBlock(item.code, codeLabel());
  if (item.table) return attributeTable(item.table);
  if (item.example) return h('div', { class: 'guide-example' }, codeBlock(item.example, codeLabel()), liveBlock(item.example, 'guide-live'));
  if (item.post) return h('article', { class: 'guide-post' }, liveBlock(item.post, 'guide-post-body'));
  throw new TypeError(`guide: unknown block ${Object.keys(item)}`);
}

const guide = document.getElementById('guide');
guide.replaceChildren(
  h(
    'header',
    { class: 'guide-intro' },
    h('h1', {}, 'Embedding attention-lab figures'),
    h(
      'p',
      { class: 'guide-lede' },
      'Live, exact attention figures in your own page: two custom elements, an iframe for hosts that strip scripts, and figure functions for your framework. Every example below is live.',
    ),
  ),
  ...sections.map((section) =>
    h(
      'section',
      { class: 'guide-section', id: section.id, 'aria-labelledby': `${section.id}-title` },
      h('h2', { id: `${section.id}-title` }, section.title),
      blocks(section),
    ),
  ),
);

document.querySelector('.guide-nav').replaceChildren(...sections.map((s) => h('a', { href: `#${s.id}` }, s.title)));

// The iframe examples resize to their figures (the snippet the guide shows, run here).
window.addEventListener('message', (event) => {
  const height = frameHeight(event.data);
  if (height === null) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow === event.source) frame.style.height = `${height}px`;
  }
});
