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
  it("matrix(): kind is colorScale", async () => {
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
});
