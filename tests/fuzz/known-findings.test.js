// The fuzz properties for issue 8's known findings, each a regression guard now that they are
// fixed: each runs the same contract as operations.test.js over faults of one finding only
// (written before the fixes, they failed on the code of the time).
//   float32-option           finding 4: maskFill / scale / softcap finite in float64, not in float32
//   prototype-name           finding 5: scoring 'toString' and other Object.prototype names
//   inherited-option         finding 5: options read through the prototype chain
//   polluted-prototype       finding 5: Object.prototype.boolMask etc. change results
//   backward-forward-option  finding 6: backwards accept and ignore trace / returnWeights / returnLse
//   changing-getter          finding 2: a data getter read twice (short, then long); before the
//                            fix the call wrote outside its block
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { BACKENDS } from '../js/support/backends.js';
import { attentionSpec, build, softmaxSpec } from './cases.js';
import { runCase } from './run.js';
import { fuzzParams, fuzzTimeout } from './settings.js';
import { loadedBuild } from './suite.js';

const FINDINGS = [
  ['float32-option', 'an option finite in float64 but not in float32 is a RangeError naming it'],
  ['prototype-name', "a scoring named like an Object.prototype member ('toString') is a TypeError naming scoring"],
  ['inherited-option', "an option on the options object's prototype is ignored: the result is the call's without it"],
  ['polluted-prototype', 'a polluted Object.prototype changes no result'],
  ['backward-forward-option', 'a backward rejects the forward-only options trace, returnWeights and returnLse, naming them'],
];

describe.each(BACKENDS)('fuzz: issue 8 known findings ($backend)', (which) => {
  const b = loadedBuild(which);

  it.each(FINDINGS)(
    '%s: %s',
    (kind) => {
      const spec = fc.oneof(attentionSpec([kind]), softmaxSpec([kind])).filter((s) => s.fault !== null);
      fc.assert(
        fc.property(spec, (s) => void runCase(b.attn, b.module, build(s))),
        fuzzParams(50),
      );
    },
    fuzzTimeout(50),
  );

  it(
    'changing-getter: data read twice (short, then long) is read once, or rejected naming the argument',
    () => {
      const spec = fc.oneof(attentionSpec(['changing-getter']), softmaxSpec(['changing-getter'])).filter((s) => s.fault !== null);
      fc.assert(
        fc.property(spec, (s) => void runCase(b.attn, b.module, build(s))),
        fuzzParams(50),
      );
    },
    fuzzTimeout(50),
  );
});
