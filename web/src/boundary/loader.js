// Picks and instantiates one of the three wasm builds (once per backend):
//   wasm-simd     web/wasm/attention-simd.{js,wasm}     when the engine validates simd128
//   wasm-relaxed  web/wasm/attention-relaxed.{js,wasm}  the same kernels with f32x4.relaxed_madd,
//                 by default where the engine validates it (loadModule), or with { simd: 'relaxed' }
//   wasm-scalar   web/wasm/attention-scalar.{js,wasm}   otherwise, or with { simd: false }
// The .wasm is compiled here once per load (Node: read from disk, since Emscripten 3.1.6's glue
// would fetch() a file path; browsers: fetched from a URL next to this file, which bundlers follow
// through the new URL(..., import.meta.url) literals below), and the glue instantiates that
// compiled module through its instantiateWasm hook, synchronously.
//
// A module that heals: a wasm trap (WebAssembly.RuntimeError: an out-of-bounds access, an abort)
// leaves an instance whose memory and stack may be anything, so a Runtime never reuses it. The call
// that trapped throws an Error that says so (the trap as its cause), and the next call, on any API
// object of that Runtime (or a fresh loadAttention(), which gets the cached Runtime), runs on a
// fresh instance of the same compiled module, made synchronously. (tests/js/api/hardening.test.js
// forces a trap through the internal hook loadModule() gives tests: the live module's
// stackRestore(0), after which the next call's first stack frame lies below address 0.)
// Runtime.build names the build and its products' register tile, fixed when the core was compiled
// (cpp/src/kernels_gemm.cpp): { name: 'simd' | 'relaxed' | 'scalar', tile }.

// The smallest module with a simd128 instruction (v128.const; i8x16.popcnt), as used by
// wasm-feature-detect: WebAssembly.validate accepts it exactly when the engine has SIMD.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

// The smallest module with a relaxed-simd instruction (three i32x4.splat, f32x4.relaxed_madd, drop):
// WebAssembly.validate accepts it exactly when the engine has relaxed SIMD.
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 20, 1, 18, 0, 65, 0, 253, 17, 65, 0, 253, 17, 65, 0, 253, 17, 253, 133, 2, 26, 11,
]);
const BUILDS = {
  'wasm-simd': {
    glue: () => import('../../wasm/attention-simd.js'),
    wasmUrl: () => new URL('../../wasm/attention-simd.wasm', import.meta.url),
  },
  'wasm-relaxed': {
    glue: () => import('../../wasm/attention-relaxed.js'),
    wasmUrl: () => new URL('../../wasm/attention-relaxed.wasm', import.meta.url),
  },
  'wasm-scalar': {
    glue: () => import('../../wasm/attention-scalar.js'),
    wasmUrl: () => new URL('../../wasm/attention-scalar.wasm', import.meta.url),
  },
};

import { preparePacked } from './packed.js';

const cache = new Map(); // backend -> Promise<Runtime>, for loads from the default location

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

/** The load options checked, as a copy of the own ones (nothing read from a polluted prototype). */
function checkLoadOptions(given) {
  if (given === null || typeof given !== 'object') {
    throw new TypeError(`loadAttention: options must be an object { simd, wasmUrl, wasmBinary }, got ${given}`);
  }
  const known = ['simd', 'wasmUrl', 'wasmBinary'];
  const options = Object.create(null);
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) throw new TypeError(`loadAttention: unknown option '${key}' (known: ${known.join(', ')})`);
    options[key] = given[key];
  }
  if (options.simd !== undefined && typeof options.simd !== 'boolean' && options.simd !== 'relaxed') {
    throw new TypeError(`loadAttention: simd must be 'relaxed', true, false or undefined, got ${String(options.simd)}`);
  }
  const binary = options.wasmBinary;
  if (binary !== undefined && !(binary instanceof ArrayBuffer || binary instanceof Uint8Array)) {
    throw new TypeError('loadAttention: wasmBinary must be an ArrayBuffer or a Uint8Array');
  }
  return options;
}

/** The compiled module of `backend`, from wasmBinary, the default file or wasmUrl. */
async function compile(backend, { wasmUrl, wasmBinary }) {
  const url = wasmUrl ?? BUILDS[backend].wasmUrl();
  if (wasmBinary !== undefined) return WebAssembly.compile(wasmBinary);
  if (isNode()) return WebAssembly.compile(await readWasmInNode(url));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`loadAttention: fetching ${url} failed with HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** One live instance of a compiled build at a time, replaced after a trap. */
class Runtime {
  constructor(backend, factory, compiled) {
    this.backend = backend;
    this.factory = factory;
    this.compiled = compiled;
    this.current = null;
    this.instances = 0; // how many were made: 1 until a trap
    this.build = null; // { name, tile }, frozen, read from the first instance (createRuntime)
  }

  /** The live Emscripten module; a fresh instance when the last one trapped. */
  get module() {
    if (this.current === null) this.current = this.instantiate();
    return this.current;
  }

  instantiate() {
    const compiled = this.compiled;
    const module = {
      // Synchronous: the glue then finishes its whole start-up inside factory() below.
      instantiateWasm(imports, receive) {
        const instance = new WebAssembly.Instance(compiled, imports);
        receive(instance, compiled);
        return instance.exports;
      },
    };
    this.factory(module);
    if (!module.calledRun) throw new Error('loadAttention: the wasm module did not start');
    preparePacked(module);
    this.instances += 1;
    return module;
  }

  /**
   * body(module) on the live instance. A trap discards that instance and becomes an Error that
   * names `fn` and says the module was reset; other errors (TypeError, RangeError) pass unchanged.
   */
  call(fn, body) {
    const module = this.module;
    try {
      return body(module);
    } catch (error) {
      if (!(error instanceof WebAssembly.RuntimeError)) throw error;
      if (this.current === module) this.current = null;
      throw new Error(`${fn}: the wasm module trapped (${error.message}); it was reset, and the next call runs on a fresh instance`, { cause: error });
    }
  }
}

const BUILD_NAMES = { 'wasm-simd': 'simd', 'wasm-relaxed': 'relaxed', 'wasm-scalar': 'scalar' };

async function createRuntime(backend, options) {
  const [compiled, { default: factory }] = await Promise.all([compile(backend, options), BUILDS[backend].glue()]);
  const runtime = new Runtime(backend, factory, compiled);
  const module = runtime.module; // instantiate now: a load that cannot start fails here, not at the first call
  runtime.build = Object.freeze({ name: BUILD_NAMES[backend], tile: module.tileName() });
  return runtime;
}

/**
 * -> Promise<{ module, backend, runtime }>: the Runtime of the build and its live module. Loads
 * from the default location are cached per backend; loads from a given wasmUrl or wasmBinary are
 * not (they may be any copy of the build).
 */
export async function loadModule(given = {}) {
  const options = checkLoadOptions(given);
  const supported = simdSupported();
  if (options.simd === true && !supported) {
    throw new Error('loadAttention: this JS engine does not support WebAssembly SIMD; use { simd: false }');
  }
  if (options.simd === 'relaxed' && !relaxedSimdSupported()) {
    throw new Error('loadAttention: this JS engine does not support WebAssembly relaxed SIMD; use { simd: true }');
  }
  // No `simd`: relaxed where it validates, the faster build (docs/performance.md). FMA rounds
  // once, so the last bits may differ between CPUs: the explorer and elements ask for simdSupported().
  const relaxed = options.simd === 'relaxed' || (options.simd === undefined && relaxedSimdSupported());
  const backend = relaxed ? 'wasm-relaxed' : (options.simd ?? supported) ? 'wasm-simd' : 'wasm-scalar';
  let runtime;
  if (options.wasmUrl !== undefined || options.wasmBinary !== undefined) {
    runtime = await createRuntime(backend, options);
  } else {
    if (!cache.has(backend)) {
      const loading = createRuntime(backend, {});
      cache.set(backend, loading);
      loading.catch(() => cache.delete(backend)); // a failed load may be retried
    }
    runtime = await cache.get(backend);
  }
  return { module: runtime.module, backend, runtime };
}
