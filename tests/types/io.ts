// A consumer of 'attention-lab/io' (web/io/index.d.ts): readTensors with every option and every
// input kind, every field of its result, both writers with every tensor form and their metadata.
import {
  readTensors,
  writeNpy,
  writeSafetensors,
  type FileTensor,
  type ReadOptions,
  type TensorFile,
  type TensorFormat,
  type TensorInput,
} from 'attention-lab/io';
import { expectType, type Equal } from './assert.js';

const formats: TensorFormat[] = ['npy', 'npz', 'safetensors', 'json'];
const readOptions = { name: 'attn.safetensors', format: formats[2], maxBytes: 2 ** 31 } satisfies Required<ReadOptions>;

// Every TensorInput form.
const inputs: TensorInput[] = [
  { data: new Float32Array(4), shape: [2, 2] },
  { data: [1, 2, 3, 4], shape: [4] as const },
  [1, 2],
  [
    [1, 2],
    [3, 4],
  ],
  [[[1, 2]]],
  [[[[1, 2]]]],
];

/** Reads every field of a tensor file. */
function readFile(file: TensorFile): number {
  const tensors: Record<string, FileTensor> = file.tensors;
  let n = 0;
  for (const tensor of Object.values(tensors)) {
    const data: Float32Array = tensor.data;
    const shape: number[] = tensor.shape;
    const dtype: string = tensor.dtype;
    n += data.length + shape.length + dtype.length;
  }
  const tokens: string[] | undefined = file.tokens;
  const metadata: Record<string, string> | undefined = file.metadata;
  return n + (tokens?.length ?? 0) + Object.keys(metadata ?? {}).length;
}

export async function useIo(blob: Blob): Promise<number> {
  const npy: Uint8Array = writeNpy(inputs[0]);
  const safetensors: Uint8Array = writeSafetensors(Object.fromEntries(inputs.map((t, i) => [`t${i}`, t])), {
    tokens: ['the', 'cat'],
    model: 'bert-base-uncased',
  });
  writeSafetensors({ x: [1] }, { format: 'pt' });
  writeSafetensors({});
  expectType<Equal<Awaited<ReturnType<typeof readTensors>>, TensorFile>>(true);
  // Every kind of bytes: a Uint8Array, another view, an ArrayBuffer, a SharedArrayBuffer, a Blob (a File).
  const files: TensorFile[] = await Promise.all([
    readTensors(safetensors, readOptions),
    readTensors(new DataView(npy.buffer), { name: 'x.npy' }),
    readTensors(npy.buffer as ArrayBuffer, { format: 'npy' }),
    readTensors(new SharedArrayBuffer(8)),
    readTensors(blob),
  ]);
  return files.reduce((n, file) => n + readFile(file), 0);
}

export async function misuse(bytes: Uint8Array): Promise<void> {
  // @ts-expect-error pickles (.pt) are no format: they are refused
  await readTensors(bytes, { format: 'pt' });
  // @ts-expect-error bytes, not a file name
  await readTensors('attn.npy');
  // @ts-expect-error metadata values are strings
  writeSafetensors({ x: [1] }, { layers: 12 });
  // @ts-expect-error a tensor needs its shape
  writeNpy({ data: [1, 2] });
}
