// A consumer's Node script: the README's example through the installed package's main entry, and
// every other entry imported without a DOM (as server-side rendering does): each must load, and
// only the elements entry may do anything on import. Prints JSON, with each entry's export names.
import * as main from 'attention-lab';
import * as elements from 'attention-lab/elements';
import * as figures from 'attention-lab/figures';
import * as io from 'attention-lab/io';
import * as train from 'attention-lab/train';
import * as worker from 'attention-lab/worker';

const { loadAttention } = main;

const attn = await loadAttention();
const layer = attn.selfAttention({
  wq: [
    [1, 0],
    [0, 1],
  ],
  wk: [
    [1, 1],
    [0, 1],
  ],
  wv: [
    [1, 0],
    [1, 1],
  ],
});
const { output, trace } = layer.forward([
  [1, 2],
  [0, 1],
  [3, 1],
]);
console.log(
  JSON.stringify({
    backend: attn.backend,
    weights: Array.from(trace.weights.data),
    output: Array.from(output.data),
    // attention-lab/io in Node: the weights through a .npy and back.
    saved: Array.from((await io.readTensors(io.writeNpy(trace.weights), { name: 'weights.npy' })).tensors.weights.data),
    exports: Object.fromEntries(
      [
        ['.', main],
        ['./worker', worker],
        ['./figures', figures],
        ['./io', io],
        ['./train', train],
        ['./elements', elements],
      ].map(([entry, module]) => [entry, Object.keys(module).sort()]),
    ),
  }),
);
