// The one store of a state: holds it, applies edits (functions state -> state, or a partial state
// merged in), conforms each result so no edit can break the shapes, and tells its listeners once
// per animation frame however many edits came in it (several edits in one frame cost one
// recompute). The explorer keeps its page state in one (conformed by its conformPage), each
// <attn-figure> the state of its figure (conform).
//   createStore(initial, { conform, schedule }) -> { get, update(edit), subscribe(listener) }
// schedule(fn) runs fn before the next paint: the page passes the browser's animation frame (the
// model touches no DOM), tests their own.

export function createStore(initial, { conform, schedule }) {
  let state = conform(initial);
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
      state = conform(next);
      if (!scheduled) {
        scheduled = true;
        schedule(notify);
      }
    },
    /** listener(state) after each frame with edits; returns an unsubscribe function. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
