// A trained model's head as an explorer example (web/model/train/head-pipeline.js): the pipeline
// computed from its Q, K, V (the figures' pipelineState and the model's compute, as the lab draws
// it) has exactly the attention weights the model's own forward trace holds for that head.
import { describe, expect, it } from 'vitest';
import { loadBackend } from '../support/backends.js';
import { compute } from '../../../web/model/compute/index.js';
import { pipelineState } from '../../../web/figures/pipeline/state.js';
import { headPipelineSpec, headPipelineSpecs, PIPELINE_TOKENS } from '../../../web/model/train/head-pipeline.js';
import { inductionTask } from '../../../web/model/train/tasks.js';

// The core's float32 forward against float64 Q, K, V rounded to float32 by the example: weights in
// [0, 1] from softmaxes of scores of size ~10 agree to a few float32 ulps of the scores; 2e-5.
const TOLERANCE = 2e-5;

describe.each([
  ['learned positions, 4 heads', { positions: 'learned', heads: 4, kvHeads: 4 }],
  ['rope, 4 heads sharing 2 kv heads', { positions: 'rope', heads: 4, kvHeads: 2 }],
  ['alibi, 4 heads', { positions: 'alibi', heads: 4, kvHeads: 4 }],
  ['alibi, 3 heads (slopes of 2 and 4 heads interleaved)', { positions: 'alibi', heads: 3, kvHeads: 3, dModel: 24 }],
])('a trained head as an example (%s)', (_, options) => {
  it("the pipeline's weights equal the forward trace's attentions of every layer and head", async () => {
    const attn = await loadBackend({ simd: true, backend: 'wasm-simd' });
    const model = attn.transformer({ vocab: 26, dModel: 32, layers: 2, maxLength: 24, mlp: 0, seed: 3, ...options });
    const task = inductionTask({ seed: 5 });
    for (let step = 0; step < 60; step++) {
      const batch = task.next(16);
      model.trainStep(batch.tokens, { optimizer: { learningRate: 3e-3 } });
    }
    const probe = inductionTask({ seed: 9 }).next(2);
    const { trace } = model.forward(probe.tokens, { trace: true });
    const parameters = model.parameters();
    const T = 24;
    let worst = 0;
    // Every head at once (what a snapshot keeps) gives the examples one head at a time gives.
    const everyHead = headPipelineSpecs({ parameters, config: model.config, tokens: probe.tokens, trace, b: 1 });
    for (let layer = 0; layer < 2; layer++) {
      for (let head = 0; head < options.heads; head++) {
        const { spec, shown } = headPipelineSpec({ parameters, config: model.config, tokens: probe.tokens, trace, layer, head, b: 1 });
        expect(everyHead[layer][head].spec).toEqual(spec);
        expect(shown).toBe(PIPELINE_TOKENS);
        const state = await pipelineState(spec);
        const { weights } = compute(attn, state).heads[0].runs[0];
        for (let i = 0; i < shown; i++) {
          for (let j = 0; j < shown; j++) {
            const expected = trace.attentions.data[(((1 * 2 + layer) * options.heads + head) * T + i) * T + j];
            const difference = Math.abs(weights.data[i * shown + j] - expected);
            if (difference > worst) worst = difference;
            if (difference > TOLERANCE)
              expect.fail(`layer ${layer} head ${head} weight [${i}, ${j}]: pipeline ${weights.data[i * shown + j]}, trace ${expected}`);
          }
        }
      }
    }
    console.log(`${options.positions}: worst weight difference ${worst.toExponential(2)}`);
    model.dispose();
  });
});
