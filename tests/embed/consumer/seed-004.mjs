// A consumer's Node script: the README's example through the installed package's main entry, and
// the figures entry imported without a DOM (it must have no side effects on import). Prints JSON.
import { loadAttention } from 'attention-lab';
import * as figures from 'attention-lab/figures';

const attn = await loadAttention();
const layer = attn.selfAttention({ wq: [[1, 0], [0, 1]], wk: [[1, 1], [0, 1]], wv: [[1, 0], [1, 1]] });
const { output, trace } = layer.forward([[1, 2], [0, 1], [3, 1]]);
console.log(JSON.stringify({
  backend: attn.backend,
  weights: Array.from(trace.weights.data),
  output: Array.from(output.data),
  figures: Object.keys(figures).sort(),
}));
