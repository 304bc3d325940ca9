// The elements' styles, adopted by each shadow root (nothing is added to the page's styles, and
// the page's selectors do not reach inside): the figure functions' figures.css, fetched once from
// beside them (so the package holds one copy, and bundlers copy it as an asset), and the frame
// below.
//
// Theming: the --attn-* custom properties of figures.css inherit into the shadow root, so a page
// sets them anywhere (on :root, or on attn-figure / attn-heatmap). Where a page sets none, the
// defaults below apply, in light or dark after the page's color-scheme (light-dark()), or after
// the theme attribute: theme="light" | "dark" | "auto" (the reader's system setting).

import { PALETTE as FIGURE_PALETTE } from '../figures/palette.js';

const FIGURES_CSS = new URL('../figures/figures.css', import.meta.url);

// The figures' palette (palette.js). :host reads the page's value (or the default) into --_p; the
// frame sets the property from it, which inherits.
const PALETTE = Object.entries(FIGURE_PALETTE);

const hostDefaults = PALETTE.map(([name, [light, dark]]) => `--_p-${name}: var(--attn-${name}, light-dark(${light}, ${dark}));`).join('\n  ');
const frameValues = PALETTE.map(([name]) => `--attn-${name}: var(--_p-${name});`).join('\n  ');

const ELEMENT_CSS = `
:host {
  display: block;
  margin: 1.5em 0;
  font-family: var(--attn-font, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
  font-size: 14px;
  line-height: 1.4;
  text-align: start;
  ${hostDefaults}
}
:host([hidden]) { display: none; }
:host([theme='light']) { color-scheme: light; }
:host([theme='dark']) { color-scheme: dark; }
:host([theme='auto']) { color-scheme: light dark; }

.frame {
  ${frameValues}
  position: relative;
  box-sizing: border-box;
  max-width: 100%;
  padding: 12px 14px 10px;
  border: 1px solid var(--attn-grid);
  border-radius: 12px;
  background: var(--attn-cell);
  color: var(--attn-ink);
}
.frame[hidden] { display: none; }
.body { min-width: 0; }
/* A heatmap wider than its frame (24 keys on a phone) scales down to it: its viewBox keeps every cell. */
.body > svg.attn-heatmap { max-width: 100%; height: auto; }
.has-error .body:empty { display: none; }
/* An error with nothing drawn: no Export menu over the message (nothing to export). */
.has-error .body:empty + .toolbar { display: none; }
.body:empty::before {
  content: attr(data-placeholder);
  display: grid;
  place-items: center;
  min-height: 96px;
  color: var(--attn-ink-muted);
  font-size: 13px;
}

.toolbar { display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-end; gap: 6px; margin-top: 8px; }
.toolbar .label { margin-right: auto; color: var(--attn-ink-muted); font-size: 12px; }
.tool, .menu-item {
  font: inherit;
  font-size: 12px;
  line-height: 1;
  padding: 5px 9px;
  border: 1px solid var(--attn-grid);
  border-radius: 7px;
  background: var(--attn-cell);
  color: var(--attn-ink);
  cursor: pointer;
}
.tool:hover, .menu-item:hover { border-color: var(--attn-ink-muted); }
.tool:focus-visible, .menu-item:focus-visible { outline: 2px solid var(--attn-focus); outline-offset: 1px; }
.menu-item:disabled { opacity: 0.5; cursor: default; }

.status { margin: 6px 0 0; font-size: 12.5px; color: var(--attn-ink-muted); }
.status:empty { display: none; }
.status.error { color: var(--attn-pos); }

.band + .band { margin-top: 14px; }
.band-title {
  margin: 0 0 8px;
  font-size: 11.5px;
  font-weight: 650;
  letter-spacing: 0.06em;
  text-transform: uppercase;
  color: var(--attn-ink-muted);
}
.band-cards { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 14px 26px; }
.stage-card { min-width: 0; max-width: 100%; }
.stage-title { display: flex; flex-wrap: wrap; align-items: baseline; gap: 7px; margin: 0 0 6px; font-size: 13px; font-weight: 500; }
.stage-symbol { font-family: var(--attn-math-font, 'Iowan Old Style', 'Source Serif 4', Georgia, serif); font-style: italic; font-size: 16px; font-weight: 600; }
.stage-size { color: var(--attn-ink-muted); font-size: 11.5px; font-variant-numeric: tabular-nums; }
.figure { margin: 0; }
.figure + .figure { margin-top: 8px; }
.figure-label { margin-bottom: 2px; color: var(--attn-ink-muted); font-size: 11.5px; }
.stage-caption { max-width: 38ch; margin: 6px 0 0; color: var(--attn-ink-muted); font-size: 12px; }
.figure-scroll { position: relative; max-width: 100%; overflow-x: auto; padding: 2px; scrollbar-width: thin; }

/* The explorer's heatmap and link views (web/figures/pipeline/gallery.js). */
.gallery .band-title { margin: 0; font-size: 13px; font-weight: 600; }
.gallery .band-lede { margin: 2px 0 10px; color: var(--attn-ink-muted); font-size: 12px; }
.gallery-grid { display: flex; flex-wrap: wrap; gap: 16px; }
.gallery-item { max-width: 100%; }
.gallery-note { margin: 0 0 8px; color: var(--attn-ink-muted); font-size: 12px; }
/* The explorer's per-figure menus (in the gallery view): the element has its own, below. */
.body .figure-menu { display: none; }
/* The export menu (web/figures/export/menu-button.js). */
.figure-menu { position: relative; }
.figure-menu > summary { list-style: none; }
.figure-menu > summary::-webkit-details-marker { display: none; }
.menu-list {
  position: absolute;
  right: 0;
  bottom: calc(100% + 4px);
  z-index: 3;
  display: grid;
  min-width: 90px;
  padding: 4px;
  border: 1px solid var(--attn-grid);
  border-radius: 8px;
  background: var(--attn-cell);
}
.menu-item { border-color: transparent; text-align: start; white-space: nowrap; }
/* The format on its line, its note under it: Chinese would otherwise break inside a word. */
.menu-item-note { display: block; font-size: 0.85em; color: var(--attn-ink-muted); }

/* Typing a number into an editable cell (web/figures/interact/cell-editor.js). */
.cell-editor {
  position: absolute;
  z-index: 2;
  box-sizing: border-box;
  padding: 0 6px;
  border: 2px solid var(--attn-focus);
  border-radius: 7px;
  background: var(--attn-cell);
  color: var(--attn-ink);
  font-family: inherit;
  font-size: 13px;
  font-weight: 600;
  font-variant-numeric: tabular-nums;
  text-align: center;
  outline: none;
}
.cell-editor.is-invalid { border-color: var(--attn-pos); }
/* What a paste did (web/figures/interact/paste-notice.js), at the foot of the window. */
.paste-notice {
  position: fixed; z-index: 20; bottom: 16px; left: 50%; transform: translateX(-50%);
  width: max-content; max-width: min(560px, calc(100vw - 32px)); margin: 0; padding: 8px 12px;
  border: 1px solid var(--attn-grid); border-inline-start: 4px solid var(--attn-focus); border-radius: 8px;
  background: var(--attn-cell); color: var(--attn-ink); font-size: 13px; line-height: 1.4; cursor: pointer;
}
.paste-notice.is-error { border-inline-start-color: var(--attn-pos); }
`;

let sheets = null;

function sheetOf(cssText) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(cssText);
  return sheet;
}

/**
 * -> Promise<CSSStyleSheet[]> for a shadow root's adoptedStyleSheets, built once per page. A failed
 * fetch is not kept: the next element to ask fetches again (one network error must not leave every
 * element of the page unstyled until a reload).
 */
export function elementSheets() {
  if (sheets === null) {
    const loading = fetch(FIGURES_CSS)
      .then((response) => {
        if (!response.ok) throw new Error(`attention-lab: ${FIGURES_CSS} answered HTTP ${response.status}`);
        return response.text();
      })
      .then((figuresCss) => [sheetOf(figuresCss), sheetOf(ELEMENT_CSS)]);
    sheets = loading;
    loading.catch(() => {
      if (sheets === loading) sheets = null;
    });
  }
  return sheets;
}
