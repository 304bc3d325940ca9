// The panel registry: every part of the page outside the figures is a panel in a slot.
//   {
//     id, slot,               slot: 'masthead' | 'controls' | 'notes' | 'main' | 'footer'
//     order,                  position within the slot (smaller first; default 100)
//     mount(container, app) -> { update(state, result) }   called once; update on every change
//   }
// app = { store, attn, stages (web/model/stages/registry.js), presets, announce(message) }.
// A panel gets its own <section> (or <div> in the masthead), created by the page in slot order.
// The training panel (order 200) and the speed panel (order 300) follow the pipeline in 'main'.

const panels = [];

export function registerPanel(panel) {
  if (panels.some((p) => p.id === panel.id)) throw new Error(`registerPanel: '${panel.id}' is registered already`);
  panels.push({ order: 100, ...panel });
}

export function panelsIn(slot) {
  return panels.filter((p) => p.slot === slot).sort((a, b) => a.order - b.order);
}
