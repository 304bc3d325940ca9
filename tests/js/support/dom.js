// A figure attached to the page for the length of one test (the figures measure text and paint
// canvases only once attached), removed when the test ends.
import { onTestFinished } from 'vitest';

/** Appends `node` to the body until the current test ends; -> node. */
export function attach(node) {
  document.body.append(node);
  onTestFinished(() => node.remove());
  return node;
}
