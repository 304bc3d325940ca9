// Sizes: tokens, widths and heads ('self'), or batch, queries, keys and widths ('qkv').
// Every change reshapes the state at once (new cells get seeded values).
import { stepper, fieldset } from './widgets.js';
import { LIMITS } from '../../model/state/model.js';
import { setSize, sizeControls } from '../../model/state/sizes.js';

// name -> [its word in the catalog ('site.size.<word>'), its letter, its range]
const LABELS = {
  tokens: ['tokens', 'T', LIMITS.tokens],
  dIn: ['dIn', 'd_in', LIMITS.width],
  dQ: ['dQ', 'd_q', LIMITS.width],
  dV: ['dV', 'd_v', LIMITS.width],
  heads: ['heads', 'H', LIMITS.heads],
  batch: ['batch', 'B', LIMITS.batch],
  queries: ['queries', 'T_q', LIMITS.tokens],
  keys: ['keys', 'T_k', LIMITS.tokens],
  d: ['dQ', 'd', LIMITS.width],
  dv: ['dV', 'd_v', LIMITS.width],
};

function mount(container, { store, t }) {
  let source = null;
  let steppers = new Map();

  function build(state) {
    source = state.source;
    steppers = new Map(sizeControls(state).map(([name]) => {
      const [word, letter, range] = LABELS[name];
      const label = t(`site.size.${word}`);
      return [name, stepper(label, range, (n) => store.update((s) => setSize(s, name, n)), { hint: letter, names: { fewer: t('site.fewer', { label }), more: t('site.more', { label }) } })];
    }));
    container.replaceChildren(fieldset(t('site.sizes'), ...[...steppers.values()].map((s) => s.node)));
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
