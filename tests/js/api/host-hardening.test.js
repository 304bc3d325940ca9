// What the package and the explorer do with input from the page around them: a stylesheet fetch
// that failed once is tried again, the iframe snippet's height listener ignores heights that are
// not finite numbers >= 0, and a link's scale that overflows float32 is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { elementSheets } from '../../../web/elements/styles.js';
import { frameHeight } from '../../../web/site/features/embed/height-listener.js';
import { iframeSnippet } from '../../../web/site/features/embed/snippets.js';
import { conform } from '../../../web/model/state/conform.js';
import { decodeState, encodeState } from '../../../web/site/url.js';

describe("the elements' stylesheet", () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it.runIf(typeof CSSStyleSheet === 'function')('a failed fetch is not kept: the next element fetches again', async () => {
    globalThis.fetch = async () => {
      throw new TypeError('network down');
    };
    await expect(elementSheets()).rejects.toThrow('network down');
    globalThis.fetch = realFetch;
    const sheets = await elementSheets();
    expect(sheets).toHaveLength(2);
    expect(sheets.every((sheet) => sheet instanceof CSSStyleSheet)).toBe(true);
    expect(await elementSheets()).toBe(sheets); // kept once it worked
  });
});

describe('the iframe height listener', () => {
  /** Runs the snippet's script against a page of one iframe; -> the iframe's style after `data` is posted. */
  function postToSnippet(data) {
    const html = iframeSnippet({ view: 'matrix', preset: 'custom' }, { embedUrl: 'https://example.org/embed.html' });
    const script = html.slice(html.indexOf('<script>') + 8, html.indexOf('</script>'));
    const frame = { contentWindow: {}, style: { height: '420px' } };
    let listener;
    const page = { addEventListener: (type, fn) => (listener = fn), document: { querySelectorAll: () => [frame] } };
    new Function('addEventListener', 'document', script)(page.addEventListener, page.document);
    listener({ data, source: frame.contentWindow });
    return frame.style.height;
  }

  it('sizes the iframe to a finite height', () => {
    expect(postToSnippet({ type: 'attention-lab:height', height: 512 })).toBe('512px');
    expect(frameHeight({ type: 'attention-lab:height', height: 512 })).toBe(512);
  });

  it.each([NaN, Infinity, -Infinity, -5, '1e9px; background: red', null, undefined, { valueOf: () => 1 }])('ignores the height %s', (height) => {
    expect(postToSnippet({ type: 'attention-lab:height', height })).toBe('420px');
    expect(frameHeight({ type: 'attention-lab:height', height })).toBe(null);
  });

  it('ignores other messages', () => {
    expect(postToSnippet({ type: 'something-else', height: 10 })).toBe('420px');
    expect(frameHeight('attention-lab:height')).toBe(null);
  });
});

describe("the explorer's state from a link", () => {
  it('refuses a scale that overflows or underflows float32 at some temperature', () => {
    for (const scale of [1e39, 1e38, -1, 0, 1e-46, 1e-44, Infinity, NaN, '2']) {
      expect(conform({ scale }).scale).toBe(null);
      expect(decodeState(encodeState({ ...conform({}), scale })).scale).toBe(null);
    }
    for (const scale of [0.5, 1e30, 1e-30]) expect(conform({ scale }).scale).toBe(scale);
  });
});
