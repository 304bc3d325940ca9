// Calls into the binding through its packed entry points (cpp/bindings/packed.hpp): the *Args
// object and the Buffers addresses are written as doubles into one record in wasm memory and the
// entry gets the record's address. Embind's own conversion of the two value_objects (a call into
// wasm per field, a malloc per object) cost about 3 us per call, most of a 4x4 attention's time.
// The field order comes from the module (packedLayout()), so it is written once, in C++.

const ARGS_OF_ENTRY = {
  maskedSoftmaxForward: 'SoftmaxArgs',
  maskedSoftmaxBackward: 'SoftmaxArgs',
  sdpaForward: 'SdpaArgs',
  sdpaBackward: 'SdpaArgs',
  scoringForward: 'ScoringArgs',
  scoringBackward: 'ScoringArgs',
};

const packedByModule = new WeakMap(); // module -> { record, entries } | null (a build without packed entries)

/** "MaskArgs=a,b;SdpaArgs=B,...,mask;Buffers=x,..." -> { MaskArgs: ['a', 'b'], ... } */
function parseLayout(layout) {
  return Object.fromEntries(layout.split(';').map((list) => {
    const [name, fields] = list.split('=');
    return [name, fields.split(',')];
  }));
}

/**
 * Sets up the packed calls of `module` (once; at load, so the record's allocation happens before
 * any call and never shows up as a change of the heap between calls).
 */
export function preparePacked(module) {
  if (packedByModule.has(module)) return packedByModule.get(module);
  let packed = null;
  if (typeof module.packedLayout === 'function') {
    const lists = parseLayout(module.packedLayout());
    const entries = {};
    let longest = 0;
    for (const [entry, argsName] of Object.entries(ARGS_OF_ENTRY)) {
      const fields = lists[argsName];
      const doubles = fields.length - 1 + lists.MaskArgs.length + lists.Buffers.length; // mask counts its own fields
      longest = Math.max(longest, doubles);
      entries[entry] = { fields, call: module[`${entry}Packed`] };
    }
    packed = { record: module._malloc(longest * 8) >>> 0, entries, maskFields: lists.MaskArgs, bufferFields: lists.Buffers };
    if (packed.record === 0) packed = null; // no memory even for the record: the value_object path still works
  }
  packedByModule.set(module, packed);
  return packed;
}

/** Writes args (its mask field in place) and the buffer addresses at the record, in layout order. */
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
  const names = packed.bufferFields;
  for (let i = 0; i < names.length; i++) heap[at++] = buffers[names[i]];
}

/** module[entry](args, buffers), through the packed twin when the build has one. */
export function callEntry(module, entry, args, buffers) {
  const packed = packedByModule.get(module) ?? preparePacked(module);
  if (packed === null) return module[entry](args, buffers);
  const { fields, call } = packed.entries[entry];
  writeRecord(module.HEAPF64, packed.record >>> 3, packed, fields, args, buffers);
  return call(packed.record);
}
