// Sizes: tokens, widths and heads ('self'), or batch, queries, keys and widths ('qkv'); below
// them the tokens as text (token-text.js), whose count is a size too.
// Every change reshapes the state at once (new cells get seeded values).
import { stepper, fieldset } from './widgets.js';
import { LIMITS } from '../../model/state/model.js';
import { setSize, sizeControls, tokenFields } from '../../model/state/sizes.js';
import { tokenText } from './token-text.js';

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

/** A size's name in the page's words ('Tokens', '词元数'). */
export const sizeLabel = (name, t) => t(`site.size.${LABELS[name][0]}`);

function mount(container, app) {
  const { store, t } = app;
  let source = null;
  let steppers = new Map();
  let texts = [];

  function build(state) {
    source = state.source;
    steppers = new Map(
      sizeControls(state).map(([name]) => {
        const [, letter, range] = LABELS[name];
        const label = sizeLabel(name, t);
        return [
          name,
          stepper(label, range, (n) => store.update((s) => setSize(s, name, n)), {
            hint: letter,
            names: { fewer: t('site.fewer', { label }), more: t('site.more', { label }) },
          }),
        ];
      }),
    );
    texts = tokenFields(state).map((field) => tokenText(state.source, field, app));
    container.replaceChildren(fieldset(t('site.sizes'), ...[...steppers.values()].map((s) => s.node), ...texts.map((x) => x.node)));
    container.firstChild.classList.add('sizes-grid');
  }

  return {
    update(state) {
      if (state.source !== source) build(state);
      for (const [name, value] of sizeControls(state)) steppers.get(name).set(value);
      for (const text of texts) text.set(state);
    },
  };
}

export const sizesPanel = { id: 'sizes', slot: 'controls', order: 10, mount };
