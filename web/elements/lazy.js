// Loading on demand, shared by every figure of a page:
//   whenNear(element, fn)   runs fn once the element is within NEAR of the viewport (one
//                           IntersectionObserver for the page); returns a function that cancels
//   figureRuntime()         ONE promise for the page: the wasm core (SIMD, not relaxed: the same
//                           numbers everywhere) and the figure code (runtime.js), imported only
//                           when a figure first needs them, so a page whose figures are never
//                           scrolled to downloads no wasm.

// Start a little before the figure scrolls in, so it is drawn by the time it is seen.
const NEAR = '400px 0px';

const waiting = new Map(); // element -> callback
let observer = null;

function observe(element) {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const callback = waiting.get(entry.target);
        waiting.delete(entry.target);
        observer.unobserve(entry.target);
        callback?.();
      }
    },
    { rootMargin: NEAR },
  );
  observer.observe(element);
}

/** Calls fn once `element` nears the viewport; -> cancel(). */
export function whenNear(element, fn) {
  waiting.set(element, fn);
  observe(element);
  return () => {
    if (waiting.delete(element)) observer.unobserve(element);
  };
}

let runtime = null;

/** -> Promise<{ attn, ...runtime.js }>, the same promise for every figure of the page. */
export function figureRuntime() {
  if (!runtime) {
    runtime = Promise.all([
      import('../src/index.js').then(({ loadAttention, simdSupported }) => loadAttention({ simd: simdSupported() })),
      import('./runtime.js'),
    ]).then(([attn, code]) => ({ attn, ...code }));
    runtime.catch(() => {
      runtime = null;
    }); // a failed load (offline, say) may be retried by the next figure
  }
  return runtime;
}
