// What <attn-figure>, <attn-heatmap> and <attn-heads> share: an open shadow root with the adopted
// styles (styles.js), a frame holding the figure (body), an export menu (SVG, PNG, and HTML: the
// figure as one self-contained file, figures/export/standalone-html.js) and a status line;
// attribute changes batched into one render per microtask; errors shown in the figure.
// Subclasses implement render() (may be async), name their download with exportName() and say
// what a standalone file holds with standaloneSpec().
//
// After every successful render the element dispatches 'attn-render' (bubbles, composed), which
// the iframe embed uses to report its height and tests use to wait.
import { h } from '../figures/dom.js';
import { closeMenu, menu } from '../figures/export/menu-button.js';
import { errorText, figureLang, figureMessage, saysInWords } from '../i18n/figure-text.js';
import { languageLoaded, loadLanguage } from '../i18n/languages.js';
import { langOf } from '../figures/interact/messages.js';
import { childJson } from './attributes.js';
import { elementSheets } from './styles.js';

// Server-side rendering imports modules in Node, where there is no HTMLElement: the classes are
// then inert stand-ins (index.js defines nothing without customElements).
const Element = globalThis.HTMLElement ?? class {};

export class FigureElement extends Element {
  #scheduled = false;
  #renders = 0;
  #menu;
  /** The URL of the src file this element shows, while file-source.js's cache holds it for it. */
  fileUrl = null;
  /** Set by file-source.js with fileUrl: lets go of the file if this element is off the page. */
  releaseFile = null;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    this.body = h('div', { class: 'body', part: 'body' });
    this.status = h('p', { class: 'status', part: 'status', role: 'status' });
    // The figures' menu; its items are disabled until there is a figure to export.
    const item = (kind) => ({ id: kind, label: kind.toUpperCase(), dataset: { export: kind }, run: () => this.exportAs(kind) });
    const html = { id: 'html', label: 'HTML', note: ' ', dataset: { export: 'html' }, run: () => this.saveHtml() };
    const exports = menu({ items: [item('svg'), item('png'), html], label: ' ', className: 'tool', part: 'button' });
    for (const button of exports.querySelectorAll('button')) button.disabled = true;
    this.#menu = exports;
    this.toolbar = h('div', { class: 'toolbar', part: 'toolbar', role: 'toolbar' }, exports);
    this.speak('en');
    // Hidden until the styles are in, so an unstyled figure never flashes.
    this.frame = h('div', { class: 'frame', part: 'frame', hidden: true }, this.body, this.toolbar, this.status);
    root.append(this.frame);
  }

  connectedCallback() {
    elementSheets()
      .then((sheets) => {
        this.shadowRoot.adoptedStyleSheets = sheets;
      })
      .catch((error) => this.showError(error))
      .finally(() => {
        this.frame.hidden = false;
      });
    this.scheduleRender();
  }

  /** Leaving the page: the open menu's document listener goes now, the src file when no one else shows it. */
  disconnectedCallback() {
    closeMenu(this.#menu);
    // After the current script: a move (removed and appended again in one script) keeps the file.
    if (this.releaseFile) queueMicrotask(() => this.releaseFile?.(this));
  }

  attributeChangedCallback() {
    this.scheduleRender();
  }

  /** One render for any number of attribute changes in the same task. */
  scheduleRender() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(async () => {
      this.#scheduled = false;
      if (!this.isConnected) return;
      try {
        // zh-CN's words load with the first zh-CN figure of the page (an English page never fetches them).
        const lang = this.language();
        await loadLanguage(lang);
        this.speak(lang);
        if ((await this.render()) === false) return; // not drawn yet (waiting to be near the viewport)
        this.showError(null);
        for (const button of this.toolbar.querySelectorAll('button')) button.disabled = false;
        this.#renders += 1;
        this.dispatchEvent(new CustomEvent('attn-render', { bubbles: true, composed: true, detail: { renders: this.#renders } }));
      } catch (error) {
        this.showError(error);
      }
    });
  }

  /** 'en' | 'zh-CN': the lang attribute (RangeError naming lang when it is neither), else the page's. */
  language() {
    return this.hasAttribute('lang') ? figureLang(this.getAttribute('lang')) : langOf(this.parentNode ?? this);
  }

  /** Writes the toolbar's and the placeholder's words in `lang`. */
  speak(lang) {
    const say = (key) => figureMessage(lang, key);
    this.body.dataset.placeholder = say('figure.loading');
    this.toolbar.setAttribute('aria-label', say('figure.toolbar'));
    const summary = this.#menu.querySelector('summary');
    summary.textContent = say('figure.export');
    summary.setAttribute('aria-label', say('figure.export-name'));
    summary.title = say('figure.export-title');
    this.#menu.querySelector('.menu-list').setAttribute('aria-label', say('figure.export-name'));
    this.#menu.querySelector('[data-export="html"] .menu-item-note').textContent = say('figure.html-note');
  }

  /** Replaces the figure. */
  show(node) {
    this.body.replaceChildren(node);
  }

  /**
   * The status line: an error message (role alert) in the figure's language, or a note; null
   * clears it. An error the catalog has no words for (a file reader's, an API refusal without an
   * apiMessage) keeps its English message after a lead in the figure's language.
   */
  showError(error) {
    this.status.classList.toggle('error', Boolean(error));
    this.frame.classList.toggle('has-error', Boolean(error));
    this.status.setAttribute('role', error ? 'alert' : 'status');
    this.status.textContent = error ? `<${this.localName}> ${this.#errorWords(error)}` : '';
  }

  #errorWords(error) {
    let lang = 'en';
    try {
      lang = this.language();
    } catch {
      // a bad lang attribute: its own error is said in English
    }
    // Words that could not be loaded (offline): the error, which says so, in English.
    if (!languageLoaded(lang)) lang = 'en';
    if (saysInWords(error) || lang === 'en') return errorText(lang, error);
    return `${figureMessage(lang, 'figure.error')} ${error.message}`;
  }

  /** Downloads what the body shows as 'svg' or 'png' (composed-svg.js is loaded on first use). */
  async exportAs(kind) {
    try {
      const { exportFigure } = await import('../figures/export/composed-svg.js');
      await exportFigure(this.body, kind, this.exportName());
    } catch (error) {
      this.showError(error);
    }
  }

  /** Downloads the figure as one self-contained .html file (the code is loaded on first use). */
  async saveHtml() {
    try {
      const [{ standaloneHtml }, { download, fileName }] = await Promise.all([
        import('../figures/export/standalone-html.js'),
        import('../figures/export/download.js'),
      ]);
      const text = await standaloneHtml(await this.standaloneSpec());
      download(new Blob([text], { type: 'text/html' }), fileName(this.exportName(), 'html'));
    } catch (error) {
      this.showError(error);
    }
  }

  /**
   * What a standalone file of this figure holds: { element, attributes, data, title } (or a
   * promise of it). By default
   * the element as written (its attributes and child JSON) less `dropped`, the attributes whose
   * content the subclass gives as data instead.
   */
  standaloneSpec(data = childJson(this) ?? undefined, dropped = []) {
    const attributes = {};
    for (const { name, value } of this.attributes) if (!dropped.includes(name) && name !== 'src') attributes[name] = value;
    // The language it speaks here, given or inherited from the page: the saved file speaks it too.
    attributes.lang = this.language();
    return { element: this.localName, attributes, data, title: this.getAttribute('title') ?? `attention-lab ${this.localName}` };
  }

  /** File name parts of a download, e.g. ['seed-004', 'weights']. */
  exportName() {
    return [this.localName];
  }
}
