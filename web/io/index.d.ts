// attention-lab/io: tensors in and out of files, with no wasm and no dependencies.
//
// Errors (the returned promise rejects; the writers throw), each naming the file and the problem:
//   TypeError   content of the wrong kind: an unknown dtype, an object array (dtype 'O') or any
//               pickle (.pt, .pth, .pkl: refused, never unpickled), a header that is not a NumPy
//               dict or not JSON, non-numbers or strings where numbers belong, options that are
//               not plain strings (getters are refused, inherited properties ignored);
//   RangeError  sizes that do not add up: truncated data, a header that runs past the end or is
//               over 100 MB, a shape whose size does not match the bytes or whose product
//               overflows, safetensors offsets that overlap, leave holes or run past the end,
//               ragged nested arrays, a zip member that fails its CRC-32, inflates past its size
//               or declares more than deflate can give, zip entries that share or overlap bytes
//               (zip bombs), and a file over `maxBytes`. Every size is checked from the headers
//               and the zip central directory before anything is inflated or decoded.

/** A tensor read from a file: float32 data in C order (last axis fastest), and the file's own dtype. */
export interface FileTensor {
  data: Float32Array;
  shape: number[];
  /** The element type in the file: float16, bfloat16, float32, float64, int8..int64, uint8..uint64, bool (JSON: float32). */
  dtype: string;
}

export type TensorFormat = 'npy' | 'npz' | 'safetensors' | 'json';

export interface ReadOptions {
  /** The file name: names the file in errors, picks the format by extension, and names a .npy's tensor (without extension). */
  name?: string;
  /** Overrides the extension and the magic bytes. */
  format?: TensorFormat;
  /**
   * The most bytes one file may unpack into (a positive whole number; default 2**30, 1 GiB): the
   * tensors' float32 data (4 bytes an element, whatever the file's dtype), the bytes a .npz's
   * members inflate to, and a Blob's size, each counted from the headers before the work is done.
   * Raise it for larger files; a file over it is refused with a RangeError naming the file.
   */
  maxBytes?: number;
}

export interface TensorFile {
  /** name -> tensor: a .npy gives one tensor named after the file (or 'array'); a .npz one per member (without '.npy'). */
  tensors: Record<string, FileTensor>;
  /** A JSON `tokens` list, a safetensors `__metadata__.tokens` holding a JSON list, or a .npz string member `tokens`. */
  tokens?: string[];
  /** safetensors' `__metadata__` or a JSON `metadata` object: string -> string. */
  metadata?: Record<string, string>;
}

/**
 * Reads .npy (versions 1-3, either byte order, Fortran order returned in C order), .npz (stored or
 * deflated), .safetensors (F64 F32 F16 BF16 I64 I32 I16 I8 U64 U32 U16 U8 BOOL) or JSON (a nested
 * array; an object of nested arrays with optional `tokens` and `metadata`; a list of per-layer
 * (1, H, T, Tk) attentions, BertViz's and Hugging Face's layout, read as (L, H, T, Tk)).
 * The format comes from `format`, else the extension of `name`, else the magic bytes.
 */
export function readTensors(bytes: ArrayBufferView | ArrayBuffer | SharedArrayBuffer | Blob, options?: ReadOptions): Promise<TensorFile>;

/** A tensor to write: { data, shape } (any numbers, written as float32) or a nested array up to 4 deep. */
export type TensorInput = { data: ArrayLike<number>; shape: readonly number[] } | number[] | number[][] | number[][][] | number[][][][];

/** A float32 little-endian C-order .npy, byte for byte what numpy.save writes for the same float32 array. */
export function writeNpy(tensor: TensorInput): Uint8Array;

/**
 * A .safetensors of F32 tensors (sorted by name, header padded to 8 bytes). metadata values are
 * strings; `tokens` may be a list of strings, stored as its JSON (what readTensors reads back).
 */
export function writeSafetensors(
  tensors: Record<string, TensorInput>,
  metadata?: Record<string, string> | { tokens?: string[]; [key: string]: string | string[] | undefined },
): Uint8Array;
