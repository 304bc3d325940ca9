// The binding's Buffers record, field by field in the order of cpp/bindings/packed.hpp's
// ATTNLAB_BUFFERS (packed.js checks a loaded module's list against this one), with what the JS
// side knows of each block; the other lists of buffer names are derived from this one:
//   result     a result a caller uses: read back through overflow.js's float32 overflow check
//   argument   the public argument the block comes from, where it is named otherwise (overflow.js's message)
//   scores     a (B, H, Tq, Tk) block that only returnWeights or trace ask for (memory.js's advice when too large)
//   parameter  a scoring function's parameter: params.<name> in attention()'s messages (overflow.js)
// Properties are looked up as own properties only, so a polluted Object.prototype adds none.
const R = { result: true };
const S = { scores: true };
const BUFFERS = {
  x: {},
  y: { result: true, argument: 'weights' }, // softmax's output, the backward's input
  dy: { argument: 'gradWeights' },
  dx: R,
  q: {},
  k: {},
  v: {},
  dout: { argument: 'gradOutput' },
  out: { result: true, argument: 'saved.output' }, // the forward's output, the backward's saved one
  lse: { argument: 'saved.lse' },
  weights: { result: true, scores: true },
  scores: S,
  softcapped: S,
  masked: S,
  heads: {},
  dq: R,
  dk: R,
  dv: R,
  w: { parameter: true },
  wq: { result: true, parameter: true }, // a layer's weights after its step; additive's parameter
  wk: { result: true, parameter: true },
  wv: { result: true, parameter: true },
  wo: R,
  dw: R,
  dwq: R,
  dwk: R,
  dwv: R,
  dwo: R,
  validLens: {},
  boolMask: { argument: 'attnMask' },
  floatMask: { argument: 'attnMask' },
  scratch: {},
  alibiSlopes: {},
};

export const BUFFER_NAMES = Object.freeze(Object.keys(BUFFERS));
/** Every address 0: the Buffers of a call that passes none, or the start of one that passes a few. */
export const NO_BUFFERS = Object.freeze(Object.fromEntries(BUFFER_NAMES.map((name) => [name, 0])));
/** The names whose entry sets `property` ('result', 'scores', 'parameter'). */
export const buffersWith = (property) => BUFFER_NAMES.filter((name) => Object.hasOwn(BUFFERS[name], property));
/** The public argument a block comes from: its own name unless the table names another. */
export const argumentOf = (name) => (Object.hasOwn(BUFFERS, name) && Object.hasOwn(BUFFERS[name], 'argument') ? BUFFERS[name].argument : name);
