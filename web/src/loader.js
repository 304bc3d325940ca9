// Picks and instantiates one of the three wasm builds (once per backend):
//   wasm-simd     web/wasm/attention-simd.{js,wasm}     when the engine validates simd128
//   wasm-relaxed  web/wasm/attention-relaxed.{js,wasm}  the same kernels with f32x4.relaxed_madd,
//                 with { simd: 'relaxed' } (or by default when RELAXED_BY_DEFAULT, see below)
//   wasm-scalar   web/wasm/attention-scalar.{js,wasm}   otherwise, or with { simd: false }
// Node: Emscripten 3.1.6's glue would fetch() a file path, so the bytes are read here and passed
// as wasmBinary. Browsers: the glue fetches the .wasm from a URL next to this file (bundlers
// follow the new URL(..., import.meta.url) literals below).

// The smallest module with a simd128 instruction (v128.const; i8x16.popcnt), as used by
// wasm-feature-detect: WebAssembly.validate accepts it exactly when the engine has SIMD.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

// The smallest module with a relaxed-simd instruction (three i32x4.splat, f32x4.relaxed_madd, drop):
// WebAssembly.validate accepts it exactly when the engine has relaxed SIMD.
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 20, 1, 18, 0, 65, 0, 253, 17, 65, 0, 253, 17, 65,
  0, 253, 17, 253, 133, 2, 26, 11,
]);
// Whether loadAttention() without `simd` takes the relaxed build where the engine has it. Off:
// it is only worth a default where the bench in Chromium shows it faster (bench/results.md), and
// FMA changes results in the last bits from one engine or CPU to another.
const RELAXED_BY_DEFAULT = false;

const BUILDS = {
  'wasm-simd': {
    glue: () => import('../wasm/attention-simd.js'),
    wasmUrl: () => new URL('../wasm/attention-simd.wasm', import.meta.url),
  },
  'wasm-relaxed': {
    glue: () => import('../wasm/attention-relaxed.js'),
    wasmUrl: () => new URL('../wasm/attention-relaxed.wasm', import.meta.url),
  },
  'wasm-scalar': {
    glue: () => import('../wasm/attention-scalar.js'),
    wasmUrl: () => new URL('../wasm/attention-scalar.wasm', import.meta.url),
  },
};

const cache = new Map(); // backend -> Promise<module>, for loads from the default location

/** True when this JS engine validates WebAssembly SIMD (simd128). */
export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/** True when this JS engine validates WebAssembly relaxed SIMD (f32x4.relaxed_madd). */
export function relaxedSimdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(RELAXED_PROBE);
  } catch {
    return false;
  }
}

/** Node (main thread or worker_threads), as opposed to a browser page or Web Worker. */
export const isNode = () => typeof globalThis.process?.versions?.node === 'string' && typeof globalThis.document === 'undefined';

// A specifier in a variable, so bundlers for the browser do not try to resolve node:fs.
const NODE_FS = 'node:fs/promises';

/** The .wasm bytes in Node: file: URLs and paths from disk, http(s) URLs with fetch. */
async function readWasmInNode(url) {
  const href = String(url);
  if (/^https?:/.test(href)) {
    const response = await fetch(href);
    if (!response.ok) throw new Error(`loadAttention: fetching ${href} failed with HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_FS);
  return new Uint8Array(await readFile(url instanceof URL ? url : href));
}

function checkLoadOptions(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`loadAttention: options must be an object { simd, wasmUrl, wasmBinary }, got ${options}`);
  }
  const known = ['simd', 'wasmUrl', 'wasmBinary'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new TypeError(`loadAttention: unknown option '${key}' (known: ${known.join(', ')})`);
  }
  if (options.simd !== undefined && typeof options.simd !== 'boolean' && options.simd !== 'relaxed') {
    throw new TypeError(`loadAttention: simd must be 'relaxed', true, false or undefined, got ${String(options.simd)}`);
  }
  const binary = options.wasmBinary;
  if (binary !== undefined && !(binary instanceof ArrayBuffer || binary instanceof Uint8Array)) {
    throw new TypeError('loadAttention: wasmBinary must be an ArrayBuffer or a Uint8Array');
  }
}

async function instantiate(backend, { wasmUrl, wasmBinary }) {
  const build = BUILDS[backend];
  const url = wasmUrl ?? build.wasmUrl();
  const moduleOptions = {
    // Where the glue fetches the .wasm in browsers (ignored when wasmBinary is given).
    locateFile: (path) => (path.endsWith('.wasm') ? String(url) : path),
  };
  if (wasmBinary !== undefined) moduleOptions.wasmBinary = wasmBinary;
  else if (isNode()) moduleOptions.wasmBinary = await readWasmInNode(url);
  const { default: factory } = await build.glue();
  return factory(moduleOptions);
}

/**
 * -> Promise<{ module, backend }>. Loads from the default location are cached per backend; loads
 * from a given wasmUrl or wasmBinary are not (they may be any copy of the build).
 */
export async function loadModule(options = {}) {
  checkLoadOptions(options);
  const supported = simdSupported();
  if (options.simd === true && !supported) {
    throw new Error('loadAttention: this JS engine does not support WebAssembly SIMD; use { simd: false }');
  }
  if (options.simd === 'relaxed' && !relaxedSimdSupported()) {
    throw new Error("loadAttention: this JS engine does not support WebAssembly relaxed SIMD; use { simd: true }");
  }
  const relaxed = options.simd === 'relaxed' || (options.simd === undefined && RELAXED_BY_DEFAULT && relaxedSimdSupported());
  const backend = relaxed ? 'wasm-relaxed' : (options.simd ?? supported) ? 'wasm-simd' : 'wasm-scalar';
  if (options.wasmUrl !== undefined || options.wasmBinary !== undefined) {
    return { module: await instantiate(backend, options), backend };
  }
  if (!cache.has(backend)) {
    const loading = instantiate(backend, {});
    cache.set(backend, loading);
    loading.catch(() => cache.delete(backend)); // a failed load may be retried
  }
  return { module: await cache.get(backend), backend };
}
