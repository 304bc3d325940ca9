// Sizes: tokens, widths and heads ('self'), or batch, queries, keys and widths ('qkv').
// Every change reshapes the state at once (new cells get seeded values).
import { stepper, fieldset } from './widgets.js';
import { LIMITS } from '../../model/state/model.js';
import { setSize, sizeControls } from '../../model/state/sizes.js';

const LABELS = {
  tokens: ['Tokens', 'T', LIMITS.tokens],
  dIn: ['Input width', 'd_in', LIMITS.width],
  dQ: ['Query/key width', 'd_q', LIMITS.width],
  dV: ['Value width', 'd_v', LIMITS.width],
  heads: ['Heads', 'H', LIMITS.heads],
  batch: ['Batch', 'B', LIMITS.batch],
  queries: ['Queries', 'T_q', LIMITS.tokens],
  keys: ['Keys', 'T_k', LIMITS.tokens],
  d: ['Query/key width', 'd', LIMITS.width],
  dv: ['Value width', 'd_v', LIMITS.width],
};

function mount(container, { store }) {
  let source = null;
  let steppers = new Map();

  function build(state) {
    source = state.source;
    steppers = new Map(sizeControls(state).map(([name]) => {
      const [label, letter, range] = LABELS[name];
      return [name, stepper(label, range, (n) => store.update((s) => setSize(s, name, n)), { hint: letter })];
    }));
    container.replaceChildren(fieldset('Sizes', ...[...steppers.values()].map((s) => s.node)));
    container.firstChild.classList.add('sizes-grid');
  }

  return {
    update(state) {
      if (state.source !== source) build(state);
      for (const [name, value] of sizeControls(state)) steppers.get(name).set(value);
    },
  };
}

export const sizesPanel = { id: 'sizes', slot: 'controls', order: 10, mount };
