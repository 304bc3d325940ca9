// The status line: which core computed the page and how long the last recompute took.
import { h } from '../../figures/dom.js';

function mount(container, { attn }) {
  const status = h('p', { class: 'status' });
  container.append(status, h('p', {}, 'attention-lab · the C++ core compiled to WebAssembly, called through its public JS API. Works offline.'));
  return {
    update(state, result) {
      if (result) status.textContent = `Computed by the ${attn.backend} core (${attn.arch}) in ${result.ms.toFixed(2)} ms.`;
    },
  };
}

export const footerPanel = { id: 'footer', slot: 'footer', order: 100, mount };
