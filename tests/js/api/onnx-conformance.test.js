// ONNX conformance: all 76 Attention backend test cases (opsets 23/24) and the 7 Softmax cases of
// tests/conformance, through the public API, against the outputs computed by ONNX's own numpy
// reference. The mapping (3D heads, past key/value, masks, causal offsets, qk_matmul_output_mode)
// lives in onnx-adapter.js.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose } from '../support/numeric.js';
import { decodeValue, runOnnxAttention, runOnnxSoftmax } from './onnx-adapter.js';

// Through Vite, so the same file runs in Node and in Chromium.
const attentionFiles = import.meta.glob('../../conformance/onnx-attention/test_*.json', {
  eager: true,
  import: 'default',
});
const softmaxFiles = import.meta.glob('../../conformance/onnx-softmax/test_*.json', {
  eager: true,
  import: 'default',
});
const attentionCases = Object.values(attentionFiles).sort((a, b) => a.name.localeCompare(b.name));
const softmaxCases = Object.values(softmaxFiles).sort((a, b) => a.name.localeCompare(b.name));

// ONNX's runner compares with rtol 1e-3, atol 1e-7; we keep those for float32 cases (measured worst
// difference: 2.4e-7 absolute, on values of magnitude ~1). float16 cases: the expected values were
// computed with float16 intermediates and rounded to float16 (half an ulp is 2.4e-4 just below 1,
// where these outputs lie), while we compute in float32 from the same, exactly widened, inputs.
// Measured worst: 2.4e-4, i.e. the final rounding. ONNX suggests ~2e-2 for float16; 1e-3 (two
// float16 ulps below 1) is enough and still catches a wrong mask or weight by two orders.
const FLOAT32_TOLERANCE = { rtol: 1e-3, atol: 1e-7 };
const FLOAT16_TOLERANCE = { rtol: 1e-3, atol: 1e-3 };

function isFloat16(testCase) {
  return testCase.inputs.some((v) => v.dtype === 'float16');
}

describe('the conformance data', () => {
  it('holds the 76 ONNX Attention cases and the 7 Softmax cases', () => {
    expect(attentionCases.length).toBe(76);
    expect(softmaxCases.length).toBe(7);
  });
});

describe.each(BACKENDS)('ONNX Attention conformance ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  it.each(attentionCases.map((c) => [c.name, c]))('%s', (name, testCase) => {
    const tolerance = isFloat16(testCase) ? FLOAT16_TOLERANCE : FLOAT32_TOLERANCE;
    const { actual } = runOnnxAttention(attn, testCase);
    for (const output of testCase.outputs) {
      const expected = decodeValue(output);
      expectClose(actual[output.name], expected, { ...tolerance, label: `${name}: ${output.name}` });
      if (output.name === 'Y') expectClose(actual['Y (with trace)'], expected, { ...tolerance, label: `${name}: Y (with trace)` });
    }
  });
});

describe.each(BACKENDS)('ONNX Softmax conformance through maskedSoftmax ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  it.each(softmaxCases.map((c) => [c.name, c]))('%s', (name, testCase) => {
    const y = runOnnxSoftmax(attn, testCase);
    expectClose(y, decodeValue(testCase.outputs[0]), { ...FLOAT32_TOLERANCE, label: name });
  });
});
