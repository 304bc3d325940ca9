// Calls into the binding, whose one ABI is the packed record (cpp/bindings/packed.hpp): the *Args
// object and the Buffers addresses are written as doubles into one record in wasm memory and the
// entry gets the record's address. (Embind's own conversion of value_objects cost more than a small
// attention per call, leaked ~200 bytes when a check threw, and aborted on a failed new.)
// The field order comes from the module (packedLayout()), so it is written once, in C++; the
// names JS fills Buffers by are buffers.js's (packed.test.js checks both lists agree).

/** Every entry point and the Args struct its record starts with. */
const ARGS_OF_ENTRY = {
  maskedSoftmaxForward: 'SoftmaxArgs',
  maskedSoftmaxBackward: 'SoftmaxArgs',
  sdpaScratchFloats: 'SdpaArgs',
  sdpaForward: 'SdpaArgs',
  sdpaBackward: 'SdpaArgs',
  scoringScratchFloats: 'ScoringArgs',
  scoringForward: 'ScoringArgs',
  scoringBackward: 'ScoringArgs',
  ropeForward: 'RopeArgs',
  ropeBackward: 'RopeArgs',
  layerScratchFloats: 'LayerArgs',
  layerForward: 'LayerArgs',
  layerBackward: 'LayerArgs',
  layerCachedScratchFloats: 'LayerArgs',
  layerForwardCached: 'LayerArgs',
  initWeights: 'InitArgs',
  sgdStep: 'StepArgs',
  transformerParameterCount: 'TransformerArgs',
  transformerCreate: 'TransformerArgs',
  transformerWorkspaceFloats: 'ModelCallArgs',
  transformerForward: 'ModelCallArgs',
  transformerBackward: 'ModelCallArgs',
  transformerTrainStep: 'ModelCallArgs',
};

const packedByModule = new WeakMap(); // module -> { record, entries, maskFields, bufferFields }

/** "MaskArgs=a,b;SdpaArgs=B,...,mask;Buffers=x,..." -> { MaskArgs: ['a', 'b'], ... } */
function parseLayout(layout) {
  return Object.fromEntries(
    layout.split(';').map((list) => {
      const [name, fields] = list.split('=');
      return [name, fields.split(',')];
    }),
  );
}

/**
 * Sets up the packed calls of `module` (once; at load, so the record's allocation happens before
 * any call and never shows up as a change of the heap between calls).
 */
export function preparePacked(module) {
  if (packedByModule.has(module)) return packedByModule.get(module);
  const lists = parseLayout(module.packedLayout());
  const entries = {};
  let longest = 0;
  for (const [entry, argsName] of Object.entries(ARGS_OF_ENTRY)) {
    const fields = lists[argsName];
    const argDoubles = fields.includes('mask') ? fields.length - 1 + lists.MaskArgs.length : fields.length;
    longest = Math.max(longest, argDoubles + lists.Buffers.length);
    entries[entry] = { fields, call: module[entry] };
  }
  const record = module._malloc(longest * 8) >>> 0;
  if (record === 0) throw new RangeError('loadAttention: the module could not allocate its argument record (out of wasm memory)');
  const packed = { record, entries, maskFields: lists.MaskArgs, bufferFields: lists.Buffers };
  packedByModule.set(module, packed);
  return packed;
}

/**
 * Writes args (its mask field in place) and, when given, the buffer addresses at the record, in
 * layout order. args and buffers are made by this library with every field of their lists (so no
 * field is looked up on a prototype); buffers start from buffers.js's NO_BUFFERS.
 */
function writeRecord(heap, at, packed, fields, args, buffers) {
  for (let i = 0; i < fields.length; i++) {
    const name = fields[i];
    if (name === 'mask') {
      const mask = args.mask;
      for (let j = 0; j < packed.maskFields.length; j++) heap[at++] = +mask[packed.maskFields[j]];
    } else {
      heap[at++] = +args[name];
    }
  }
  if (buffers === undefined) return;
  const names = packed.bufferFields;
  for (let i = 0; i < names.length; i++) heap[at++] = buffers[names[i]];
}

/** module[entry](record of args, buffers): an entry point that touches tensors. */
export function callEntry(module, entry, args, buffers) {
  const packed = packedByModule.get(module) ?? preparePacked(module);
  const { fields, call } = packed.entries[entry];
  writeRecord(module.HEAPF64, packed.record >>> 3, packed, fields, args, buffers);
  return call(packed.record);
}

/** module[entry](record of args): a size query (the *ScratchFloats entries). */
export function callQuery(module, entry, args) {
  return callEntry(module, entry, args, undefined);
}
