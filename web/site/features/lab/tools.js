// The lab's tools under the model view: ablate a head (its output zeroed) and compare the probe
// batch's loss and accuracy; save the model (.safetensors, loads in PyTorch) or the probe's
// attentions (a file the explorer's model view opens); load a model file to continue.
import { h } from '../../../figures/dom.js';
import { download } from '../../../figures/export/download.js';
import { ablatedParameters, evaluate, modelFile } from '../../../model/train/driver.js';

const io = () => import('../../../io/index.js');

export function labTools({ t, attn, announce }, adoptConfig) {
  let trainer = null;
  let probe = null;
  const layer = h('select', { dataset: { field: 'ablate-layer' }, 'aria-label': t('lab.field.ablate-layer') });
  const head = h('select', { dataset: { field: 'ablate-head' }, 'aria-label': t('lab.field.ablate-head') });
  const result = h('p', { class: 'lab-ablation', dataset: { role: 'ablation' }, 'aria-live': 'polite' });
  const message = h('p', { class: 'lab-hint', 'aria-live': 'polite' });
  const fileInput = h('input', { type: 'file', accept: '.safetensors', class: 'visually-hidden', dataset: { role: 'load-model' }, onchange: () => load() });
  const percent = (x) => `${(100 * x).toFixed(1)}%`;

  async function ablate() {
    if (!trainer) return;
    try {
      const parameters = await trainer.model.parameters();
      const [l, hh] = [Number(layer.value), Number(head.value)];
      // Both on the page's synchronous API: the same probe batch with and without the head.
      const before = await evaluate(attn, trainer.config, parameters, trainer.probeBatch);
      const after = await evaluate(attn, trainer.config, ablatedParameters(parameters, trainer.config, l, hh), trainer.probeBatch);
      Object.assign(result.dataset, {
        layer: String(l),
        head: String(hh),
        lossBefore: String(before.loss),
        lossAfter: String(after.loss),
        accuracyBefore: String(before.accuracy),
        accuracyAfter: String(after.accuracy),
      });
      result.textContent = t('lab.ablation', {
        layer: l,
        head: hh,
        before: before.loss.toFixed(4),
        after: after.loss.toFixed(4),
        accBefore: percent(before.accuracy),
        accAfter: percent(after.accuracy),
      });
    } catch (e) {
      result.textContent = t('lab.error', { message: e.message });
    }
  }

  async function saveModel() {
    if (!trainer) return;
    const { writeSafetensors } = await io();
    const { tensors, metadata } = await modelFile(trainer);
    download(new Blob([writeSafetensors(tensors, metadata)], { type: 'application/octet-stream' }), `lab-model-step-${trainer.state.step}.safetensors`);
    announce(t('lab.saved'));
  }

  async function saveAttentions() {
    if (!probe) return;
    const { writeSafetensors } = await io();
    const tokens = trainer.tokenLabels(probe.tokens);
    download(
      new Blob([writeSafetensors({ attention: probe.attentions }, { tokens })], { type: 'application/octet-stream' }),
      `lab-attentions-step-${probe.step}.safetensors`,
    );
    announce(t('lab.saved'));
  }

  async function load() {
    const file = fileInput.files[0];
    fileInput.value = '';
    if (!file || !trainer) return;
    try {
      const { readTensors } = await io();
      const { tensors, metadata } = await readTensors(file, { name: file.name });
      const map = Object.fromEntries(Object.entries(tensors).map(([name, x]) => [name, { data: x.data, shape: x.shape }]));
      // The lab's own files name their configuration: a model of another size is rebuilt to fit it.
      const saved = metadata?.['attention-lab.config'] ? JSON.parse(metadata['attention-lab.config']) : null;
      const differs = saved && ['layers', 'heads', 'kvHeads', 'dModel', 'positions', 'mlp'].some((key) => saved[key] !== trainer.config[key]);
      if (differs && saved.vocab === trainer.config.vocab && saved.maxLength === trainer.config.maxLength) trainer = await adoptConfig(saved);
      await trainer.model.setParameters(map);
      await trainer.measure();
      message.textContent = t('lab.loaded', { name: file.name });
    } catch (e) {
      message.textContent = t('lab.error', { message: e.message });
    }
  }

  const node = h(
    'section',
    { class: 'lab-tools', 'aria-labelledby': 'lab-tools-title' },
    h('h2', { id: 'lab-tools-title' }, t('lab.tools-title')),
    h(
      'div',
      { class: 'lab-row' },
      h('label', {}, t('lab.field.ablate-layer'), ' ', layer),
      h('label', {}, t('lab.field.ablate-head'), ' ', head),
      h('button', { type: 'button', class: 'icon-button', dataset: { action: 'lab-ablate' }, onclick: ablate }, t('lab.ablate')),
    ),
    result,
    h(
      'div',
      { class: 'lab-row' },
      h('button', { type: 'button', class: 'icon-button', dataset: { action: 'lab-save-model' }, onclick: saveModel }, t('lab.save-model')),
      h('button', { type: 'button', class: 'icon-button', dataset: { action: 'lab-save-attentions' }, onclick: saveAttentions }, t('lab.save-attentions')),
      h('label', { class: 'icon-button' }, t('lab.load-model'), fileInput),
    ),
    message,
  );

  const options = (select, n, word) => {
    if (select.options.length === n) return;
    select.replaceChildren(
      ...Array.from({ length: n }, (_, i) => h('option', { value: String(i) }, t(word, { [word === 'lab.layer' ? 'layer' : 'head']: i }))),
    );
  };
  return {
    node,
    setTrainer(next) {
      trainer = next;
      options(layer, next.config.layers, 'lab.layer');
      options(head, next.config.heads, 'lab.head');
      result.textContent = '';
    },
    showProbe(next) {
      probe = next;
    },
  };
}
