// Reads the reports tools/test.sh writes (test-results/) into counts: GoogleTest's XML (native,
// asan) and Vitest's JSON reporter (types, node, browser, e2e, embed, timed). Each reader gives
// { passed, failed, skipped, failures }, failures one line per failed test (its name and the first
// line of its message), for the summary CI prints last (tools/test-summary.mjs).
// The wasm builds a Vitest title may name (tests/js/support/backends.js).
const BUILDS = ['wasm-simd', 'wasm-relaxed', 'wasm-scalar'];
// A failure's message is cut to its first line, at most this long.
const LINE = 300;
const cut = (line) => (line.length > LINE ? `${line.slice(0, LINE - 3)}...` : line);
// Vitest's message: its first line ("AssertionError: expected ..."); the stack follows.
const firstLine = (text) =>
  cut(
    String(text ?? '')
      .replace(/\u001b\[[0-9;]*m/g, '')
      .trim()
      .split('\n')[0],
  );
// GoogleTest's message: "file:line" then the expectation over a few lines, joined into one.
const joinedLines = (text) =>
  cut(
    text
      .trim()
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join(' '),
  );
const basename = (file) => String(file).split(/[\\/]/).pop();
const xmlText = (text) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, decimal) => String.fromCodePoint(Number(decimal)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** GoogleTest's XML: every <testcase> ran unless result="skipped"; failed when it holds a <failure>. */
export function gtestCounts(xml) {
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    if (/\bresult="skipped"|\bstatus="notrun"/.test(m[1])) counts.skipped++;
    else if (m[3] && m[3].includes('<failure')) {
      counts.failed++;
      const attribute = (name, text) => xmlText(text.match(new RegExp(`\\b${name}="([^"]*)"`))?.[1] ?? '?');
      counts.failures.push(`${attribute('classname', m[1])}.${attribute('name', m[1])}: ${joinedLines(attribute('message', m[3]))}`);
    } else counts.passed++;
  }
  return counts;
}

/**
 * Vitest's JSON reporter. A file that failed without a failed test (an import error, or a failed
 * beforeAll, after which vitest reports the tests as skipped) counts as one failure.
 */
export function vitestCounts(report) {
  const counts = { passed: 0, failed: 0, skipped: 0, byBuild: {}, failures: [] };
  for (const file of report.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed')) {
      counts.failed++;
      counts.errors = [
        ...(counts.errors ?? []),
        `${basename(file.name)}: ${(file.message || 'failed outside any test (an import error or a failed beforeAll: see the log above)').split('\n')[0]}`,
      ];
    }
    for (const t of file.assertionResults ?? []) {
      const outcome = t.status === 'passed' ? 'passed' : t.status === 'failed' ? 'failed' : 'skipped';
      counts[outcome]++;
      const title = [...(t.ancestorTitles ?? []), t.title].join(' ');
      if (outcome === 'failed') counts.failures.push(`${basename(file.name)} > ${title}: ${firstLine(t.failureMessages?.[0])}`);
      const build = BUILDS.find((name) => title.includes(name)) ?? 'both/none';
      counts.byBuild[build] ??= { passed: 0, failed: 0, skipped: 0 };
      counts.byBuild[build][outcome]++;
    }
  }
  return counts;
}
