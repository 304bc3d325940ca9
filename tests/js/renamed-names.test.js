// Names renamed before 1.0 (CHANGELOG.md): until 1.0 each old name is refused with a TypeError
// that names the old and the new name, never silently ignored. One case per renamed name; the
// figures' cases need a DOM, so they run in the browser project only.
import { describe, expect, it } from 'vitest';

const HAS_DOM = typeof document !== 'undefined';

/** Expects `call` to throw a TypeError naming `old` and `renamed` as a rename. */
function expectRenamed(call, old, renamed) {
  let error;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error, `a call with '${old}' threw`).toBeInstanceOf(TypeError);
  expect(error.message).toContain(`'${old}' was renamed '${renamed}'`);
}

describe.skipIf(!HAS_DOM)('the figures refuse their 0.1 option names', () => {
  it('matrix(): kind is colorScale', async () => {
    const { matrix } = await import('../../web/figures/index.js');
    expectRenamed(() => matrix([[1, 2]], { kind: 'weights' }), 'kind', 'colorScale');
    expect(matrix([[0.25, 0.75]], { colorScale: 'weights' }).getAttribute('class')).toContain('kind-weights');
  });

  it('links(): queryTokens and keyTokens are rowLabels and colLabels', async () => {
    const { links } = await import('../../web/figures/index.js');
    expectRenamed(() => links([[0.25, 0.75]], { queryTokens: ['x'] }), 'queryTokens', 'rowLabels');
    expectRenamed(() => links([[0.25, 0.75]], { keyTokens: ['a', 'b'] }), 'keyTokens', 'colLabels');
    const drawn = links([[0.25, 0.75]], { rowLabels: ['x'], colLabels: ['a', 'b'] }).textContent;
    for (const label of ['x', 'a', 'b']) expect(drawn).toContain(label);
  });

  it('heads(): tokens is rowLabels and colLabels (the keys default to the queries when Tk = T)', async () => {
    const { heads } = await import('../../web/figures/index.js');
    const attention = [
      [
        [
          [1, 0],
          [0.5, 0.5],
        ],
      ],
    ];
    expectRenamed(() => heads(attention, { tokens: ['a', 'b'] }), 'tokens', 'rowLabels');
    const buttons = [...heads(attention, { rowLabels: ['a', 'b'] }).querySelectorAll('[data-token]')].map((b) => b.textContent);
    expect(buttons).toEqual(['a', 'b']);
    expect(() => heads(attention, { colLabels: ['a'] })).toThrow(/colLabels must be a list of 2 labels \(Tk\), got 1/);
  });
});

describe.skipIf(!HAS_DOM)('the elements refuse their 0.1 attribute and key names, in the figure', () => {
  /** The element's status line once it has rendered or failed (the message a reader sees). */
  async function statusOf(html) {
    await import('../../web/elements/index.js');
    const host = document.createElement('div');
    host.innerHTML = html;
    document.body.append(host);
    const element = host.firstElementChild;
    const status = element.shadowRoot.querySelector('.status');
    for (let i = 0; i < 200 && !status.textContent && !element.shadowRoot.querySelector('svg, canvas'); i++) await new Promise((r) => setTimeout(r, 10));
    host.remove();
    return status.textContent;
  }
  const ATTENTION = JSON.stringify({
    attention: [
      [
        [
          [1, 0],
          [0.5, 0.5],
        ],
      ],
    ],
  });

  it('<attn-heads>: the tokens attribute is row-labels and col-labels', async () => {
    expect(await statusOf(`<attn-heads tokens="a b"><script type="application/json">${ATTENTION}</script></attn-heads>`)).toBe(
      "<attn-heads> attribute 'tokens' was renamed 'row-labels' and 'col-labels' (see CHANGELOG.md)",
    );
  });

  it('<attn-heads>: the tokens key of its JSON is rowLabels and colLabels', async () => {
    const json = JSON.stringify({
      attention: [
        [
          [
            [1, 0],
            [0.5, 0.5],
          ],
        ],
      ],
      tokens: ['a', 'b'],
    });
    expect(await statusOf(`<attn-heads><script type="application/json">${json}</script></attn-heads>`)).toBe(
      "<attn-heads> <script type=\"application/json\">: key 'tokens' was renamed 'rowLabels' and 'colLabels' (see CHANGELOG.md)",
    );
  });

  it('<attn-heatmap>: the tokens attribute is row-labels and col-labels', async () => {
    expect(await statusOf('<attn-heatmap weights="[[1, 0], [0.5, 0.5]]" tokens="a b"></attn-heatmap>')).toBe(
      "<attn-heatmap> attribute 'tokens' was renamed 'row-labels' and 'col-labels' (see CHANGELOG.md)",
    );
  });

  it('<attn-heatmap> and <attn-heads>: the label attribute (and JSON key) is title, as the figures call it', async () => {
    expect(await statusOf('<attn-heatmap weights="[[1, 0], [0.5, 0.5]]" label="Head 1"></attn-heatmap>')).toBe(
      "<attn-heatmap> attribute 'label' was renamed 'title' (see CHANGELOG.md)",
    );
    const json = JSON.stringify({
      weights: [
        [1, 0],
        [0.5, 0.5],
      ],
      label: 'Head 1',
    });
    expect(await statusOf(`<attn-heatmap><script type="application/json">${json}</script></attn-heatmap>`)).toBe(
      "<attn-heatmap> <script type=\"application/json\">: key 'label' was renamed 'title' (see CHANGELOG.md)",
    );
    expect(await statusOf(`<attn-heads label="BERT"><script type="application/json">${ATTENTION}</script></attn-heads>`)).toBe(
      "<attn-heads> attribute 'label' was renamed 'title' (see CHANGELOG.md)",
    );
    expect(await statusOf('<attn-heatmap weights="[[1, 0], [0.5, 0.5]]" title="Head 1"></attn-heatmap>')).toBe('');
  });

  it("<attn-figure>: mask-fill is a number as the API's maskFill (0.1's d2l is -1e6)", async () => {
    expect(await statusOf('<attn-figure mask-fill="d2l"></attn-figure>')).toBe(
      '<attn-figure> mask-fill: expected a number like -1e6 (d2l\'s fill) or none, got "d2l" (0.1\'s d2l is -1e6)',
    );
  });
});
