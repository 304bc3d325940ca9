// Names renamed before 1.0 (CHANGELOG.md). Until 1.0 an old name is refused with a TypeError that
// names its successor, so that code written for 0.1 fails loudly instead of losing the option. The
// API's option checks (validate.js), the figures and the elements all build it here.
import { withApiMessage } from './api-message.js';

/** The API's options renamed (old -> new), refused wherever the new name is known. */
export const RENAMED_OPTIONS = Object.freeze({ __proto__: null, seed: 'dropoutSeed' });

/**
 * The TypeError for `old`, passed where it is now called `renamed` (a name, or a list of the names
 * that replaced it); `what`: 'option', 'attribute', 'key'.
 */
export function renamedError(fn, old, renamed, what = 'option') {
  const names = [renamed]
    .flat()
    .map((name) => `'${name}'`)
    .join(' and ');
  const error = new TypeError(`${fn ? `${fn}: ` : ''}${what} '${old}' was renamed ${names} (see CHANGELOG.md)`);
  return withApiMessage(error, `renamed-${what}`, { at: fn ? `${fn}: ` : '', old, renamed: [renamed].flat().map((name) => `'${name}'`) });
}

/** Throws renamedError for the first own property of `options` named in `renamed` (old -> new). */
export function refuseRenamed(fn, options, renamed, what = 'option') {
  if (options === null || typeof options !== 'object') return;
  for (const old of Object.keys(renamed)) {
    if (Object.hasOwn(options, old)) throw renamedError(fn, old, renamed[old], what);
  }
}
