// The status line: which core computed the page and how long the last recompute took.
import { h } from '../../figures/dom.js';

function mount(container, { attn, t }) {
  const status = h('p', { class: 'status' });
  container.append(status, h('p', {}, t('site.footer')));
  return {
    update(state, result) {
      if (result) status.textContent = t('site.footer-status', { backend: attn.backend, arch: attn.arch, ms: result.ms.toFixed(2) });
    },
  };
}

export const footerPanel = { id: 'footer', slot: 'footer', order: 100, mount };
