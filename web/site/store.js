// The store: holds the current state, applies edits, and tells subscribers once per animation
// frame (several edits in one frame cost one recompute). Edits are functions state -> state
// (or a partial object merged in); the result is conformed, so no edit can break the shapes.
import { conformPage } from './page-state.js';

export function createStore(initial) {
  let state = conformPage(initial);
  let scheduled = false;
  const listeners = new Set();

  function notify() {
    scheduled = false;
    for (const listener of listeners) listener(state);
  }

  return {
    get: () => state,
    /** edit: (state) => newState, or a partial state merged over the current one. */
    update(edit) {
      const next = typeof edit === 'function' ? edit(state) : { ...state, ...edit };
      if (next === state) return;
      state = conformPage(next);
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(notify);
      }
    },
    /** listener(state) after each frame with edits; returns an unsubscribe function. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
