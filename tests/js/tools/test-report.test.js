// The readers of tools/test.sh's reports (tools/test-report.mjs): the counts CI's closing line adds
// up, and the failed tests the summary lists by name, since CI keeps only the tail of its log.
import { describe, expect, it } from 'vitest';
import { gtestCounts, vitestCounts } from '../../../tools/test-report.mjs';

describe("gtestCounts: GoogleTest's XML report", () => {
  it('counts run, skipped and failed test cases, and names each failure with its expectation on one line', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="4" failures="1" disabled="0" errors="0" name="AllTests">
  <testsuite name="Softmax" tests="4" failures="1" disabled="0" skipped="1" errors="0">
    <testcase name="RowsSumToOne" file="t.cpp" line="5" status="run" result="completed" time="0.001" classname="Softmax" />
    <testcase name="MasksBecomeZero" file="t.cpp" line="9" status="run" result="completed" time="0." classname="Softmax">
      <failure message="t.cpp:12&#x0A;Expected equality of these values:&#x0A;  w[2]&#x0A;    Which is: 0.25&#x0A;  0.f &amp; more" type=""><![CDATA[t.cpp:12
Expected equality of these values:]]></failure>
    </testcase>
    <testcase name="Wide" file="t.cpp" line="20" status="run" result="skipped" time="0." classname="Softmax"><skipped message="" /></testcase>
    <testcase name="Long" file="t.cpp" line="30" status="run" result="completed" time="0.2" classname="Softmax"></testcase>
  </testsuite>
</testsuites>`;
    expect(gtestCounts(xml)).toEqual({
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: ['Softmax.MasksBecomeZero: t.cpp:12 Expected equality of these values: w[2] Which is: 0.25 0.f & more'],
    });
  });
});

describe("vitestCounts: Vitest's JSON report", () => {
  const report = {
    testResults: [
      {
        name: '/repo/tests/e2e/positions.test.js',
        status: 'failed',
        assertionResults: [
          { ancestorTitles: ['ALiBi'], title: 'slopes in the link', status: 'passed', failureMessages: [] },
          {
            ancestorTitles: ['ALiBi', 'wasm-simd'],
            title: 'the address bar follows',
            status: 'failed',
            failureMessages: [`\u001b[31mAssertionError: expected '10' to be '11'\u001b[39m\n    at positions.test.js:113:5\n    at async run`],
          },
          { ancestorTitles: [], title: 'a skipped one', status: 'skipped', failureMessages: [] },
        ],
      },
      { name: '/repo/tests/e2e/import.test.js', status: 'failed', message: 'Cannot find module x\n  at import', assertionResults: [] },
    ],
  };

  it('counts by outcome and by wasm build, names each failed test by file and title with its first line, and counts a file that failed outside its tests', () => {
    const counts = vitestCounts(report);
    expect([counts.passed, counts.failed, counts.skipped]).toEqual([1, 2, 1]);
    expect(counts.byBuild).toEqual({
      'both/none': { passed: 1, failed: 0, skipped: 1 },
      'wasm-simd': { passed: 0, failed: 1, skipped: 0 },
    });
    expect(counts.failures).toEqual(["positions.test.js > ALiBi wasm-simd the address bar follows: AssertionError: expected '10' to be '11'"]);
    expect(counts.errors).toEqual(['import.test.js: Cannot find module x']);
  });

  it('cuts a long message to 300 characters', () => {
    const long = {
      testResults: [
        { name: 'a.test.js', status: 'failed', assertionResults: [{ ancestorTitles: [], title: 't', status: 'failed', failureMessages: ['x'.repeat(1000)] }] },
      ],
    };
    const [line] = vitestCounts(long).failures;
    expect(line).toBe(`a.test.js > t: ${'x'.repeat(297)}...`);
  });
});
