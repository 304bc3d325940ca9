// The figures' one element builder (web/figures/dom.js): h() for HTML and svg() for SVG share one
// rule for props and children; they differ only where the DOM does (an SVG element's x, width are
// read-only animated properties, so svg() writes attributes). Browser only (it needs a DOM).
import { describe, expect, it } from 'vitest';
import { h, svg } from '../../../web/figures/dom.js';

const HAS_DOM = typeof document !== 'undefined';

describe.skipIf(!HAS_DOM)('the element builders h() and svg()', () => {
  it('leave out null, undefined and false props and children, and flatten lists of children', () => {
    for (const node of [
      h('g', { a: null, b: undefined, c: false, d: 0 }, null, ['x', false], undefined),
      svg('g', { a: null, b: undefined, c: false, d: 0 }, [null, ['x', false], undefined]),
    ]) {
      expect([...node.attributes].map((a) => `${a.name}=${a.value}`)).toEqual(['d=0']);
      expect(node.textContent).toBe('x');
      expect(node.childNodes).toHaveLength(1);
    }
  });

  it('set dataset as data-* and listen through on<event> functions, in HTML and SVG alike', () => {
    const heard = [];
    for (const node of [
      h('div', { dataset: { role: 'readout' }, onclick: () => heard.push('h') }),
      svg('g', { dataset: { role: 'readout' }, onclick: () => heard.push('svg') }),
    ]) {
      expect(node.getAttribute('data-role')).toBe('readout');
      node.dispatchEvent(new Event('click'));
    }
    expect(heard).toEqual(['h', 'svg']);
  });

  it('make SVG elements in the SVG namespace with every value as an attribute (x is a read-only property)', () => {
    const rect = svg('rect', { x: 3, width: 9.5, 'aria-hidden': true });
    expect(rect.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect([rect.getAttribute('x'), rect.getAttribute('width'), rect.getAttribute('aria-hidden')]).toEqual(['3', '9.5', 'true']);
    expect(rect.x.baseVal.value).toBe(3);
  });

  it('set a non-string value on an HTML property of that name, true on any other as an empty attribute', () => {
    const input = h('input', { value: 5, hidden: true, 'aria-busy': true, title: 'a' });
    expect(input.namespaceURI).toBe('http://www.w3.org/1999/xhtml');
    expect([input.value, input.hidden, input.getAttribute('aria-busy'), input.getAttribute('title')]).toEqual(['5', true, '', 'a']);
  });
});
