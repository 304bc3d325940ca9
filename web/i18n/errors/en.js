// error.*: the API's refusals (error.apiMessage, web/src/boundary/api-message.js) as a figure or the
// explorer says them: `error.${code}`, and `error.got.${kind}` for what a value was. In English
// errorText() shows the API's own message; these words stand beside the Chinese ones.

export default {
  'error.renamed-option': "{at}option '{old}' was renamed {renamed} (see CHANGELOG.md)",
  'error.renamed-attribute': "{at}attribute '{old}' was renamed {renamed} (see CHANGELOG.md)",
  'error.renamed-key': "{at}key '{old}' was renamed {renamed} (see CHANGELOG.md)",
  'error.tensor': '{name} must be a tensor { data, shape } or nested arrays of numbers, got {got}',
  'error.tensor-required': '{name} is required: a tensor { data, shape } or nested arrays of numbers, got {got}',
  'error.tensor-data': '{name}: data must be a typed array or an array of numbers, got {got}',
  'error.tensor-number': '{path} must be a number, got {got}',
  'error.tensor-shape-type': '{name}: shape must be an array of sizes, got {got}',
  'error.tensor-shape': '{name}: shape {shape} must hold non-negative integers',
  'error.tensor-length': '{name}: data has {length} elements but shape {shape} needs {needs}',
  'error.tensor-ragged': '{path} must be an array of {count} elements like its siblings (ragged nested array), got {length} elements',
  'error.tensor-ragged-item': '{path} must be an array of {count} elements like its siblings (ragged nested array), got {got}',
  'error.got.null': 'null',
  'error.got.undefined': 'undefined',
  'error.got.array': 'an array',
  'error.got.typed': 'a {detail}',
  'error.got.object': 'an object with keys [{detail}]',
  'error.got.string': "the string '{detail}'",
  'error.got.number': 'number {detail}',
  'error.got.boolean': 'boolean {detail}',
  'error.got.value': '{detail}',
};
