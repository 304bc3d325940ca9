// axe-core (node_modules/axe-core, pinned) in a page driven by playwright-core: injects axe.min.js
// into the page (and so into its open shadow roots, which axe walks) and runs it.
import { fileURLToPath } from 'node:url';

const AXE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

/**
 * The violations axe finds on the page, worst first: [{ id, impact, help, nodes, examples }], where
 * nodes counts the failing elements and examples names up to three (selector: axe's summary).
 * options: axe.run's options (e.g. { runOnly: [...] } or { rules: { id: { enabled } } }).
 */
export async function axeViolations(page, options = {}) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async (opts) => {
    const result = await window.axe.run(document, { ...opts, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
      examples: v.nodes.slice(0, 3).map((n) => `${n.target.join(' >> ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
    }));
  }, options);
  const rank = { critical: 0, serious: 1, moderate: 2, minor: 3 };
  return violations.sort((a, b) => rank[a.impact] - rank[b.impact] || b.nodes - a.nodes);
}

/** The violations that block use: impact serious or critical. */
export const blocking = (violations) => violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
