// The worked example of seed 004 (docs/semantics.md): X = [[1,2],[0,1],[3,1]], Wq = I,
// Wk = [[1,1],[0,1]], Wv = [[1,0],[1,1]], scale 1/sqrt(2); once without a mask and once with the
// causal mask its Java code applies. Run: node examples/seed-004.mjs
import { loadAttention } from 'attention-lab';

const attn = await loadAttention();
console.log(`attention-lab on ${attn.backend} (kernels: ${attn.arch})\n`);

const x = [
  [1, 2],
  [0, 1],
  [3, 1],
];
const layer = (causal) =>
  attn.selfAttention({
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
    causal,
  });

/** A (rows, cols) tensor as aligned text rows. */
function rows({ data, shape: [r, c] }, digits) {
  return Array.from(
    { length: r },
    (_, i) => '  [' + Array.from(data.subarray(i * c, (i + 1) * c), (z) => z.toFixed(digits).padStart(digits + 3)).join(', ') + ']',
  ).join('\n');
}

for (const causal of [false, true]) {
  const { output, trace } = layer(causal).forward(x);
  console.log(causal ? 'causal (top-left: token i sees tokens 0..i)' : 'no mask');
  console.log(`Q K^T / sqrt(2):\n${rows(trace.scores, 4)}`);
  console.log(`P = softmax:\n${rows(trace.weights, 4)}`);
  console.log(`out = P V:\n${rows(output, 3)}\n`);
}

// The same numbers from scaledDotProductAttention, given Q, K, V directly.
const { output } = attn.scaledDotProductAttention(
  x,
  [
    [1, 3],
    [0, 1],
    [3, 4],
  ],
  [
    [3, 2],
    [1, 1],
    [4, 1],
  ],
);
console.log(`scaledDotProductAttention(Q, K, V) without a mask:\n${rows(output, 3)}`);
