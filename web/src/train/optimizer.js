// trainStep's optimizer options: torch.optim.AdamW's, with its defaults, and clip_grad_norm_'s
// max_norm (0: off). Checked in float32, where the core uses them.
import { expectKnownOptions, numberOption } from '../boundary/validate.js';

const finite32 = (x) => Number.isFinite(x) && Number.isFinite(Math.fround(x));
const nonNegative32 = (x) => finite32(x) && x >= 0;
const positive32 = (x) => finite32(x) && Math.fround(x) > 0;
const probability32 = (x) => typeof x === 'number' && x >= 0 && Math.fround(x) < 1;

/** optimizer { learningRate, betas?, eps?, weightDecay?, clip? } -> the binding's ModelCallArgs fields. */
export function adamwOptions(fn, optimizer) {
  if (optimizer === undefined) throw new TypeError(`${fn}: optimizer is required: { learningRate, betas?, eps?, weightDecay?, clip? }`);
  const opts = expectKnownOptions(`${fn}: optimizer`, optimizer, ['learningRate', 'betas', 'eps', 'weightDecay', 'clip']);
  if (opts.learningRate === undefined) throw new TypeError(`${fn}: optimizer.learningRate is required (a finite number >= 0)`);
  const learningRate = numberOption(fn, opts, 'learningRate', 1e-3, nonNegative32, 'a finite number >= 0 in float32');
  const betas = opts.betas ?? [0.9, 0.999];
  if (!Array.isArray(betas) || betas.length !== 2) throw new TypeError(`${fn}: betas must be two numbers [beta1, beta2], got ${String(betas)}`);
  if (!betas.every(probability32)) throw new RangeError(`${fn}: betas must lie in [0, 1) in float32, got [${betas.join(', ')}]`);
  return {
    learningRate,
    beta1: betas[0],
    beta2: betas[1],
    eps: numberOption(fn, opts, 'eps', 1e-8, positive32, 'a finite number > 0 in float32'),
    weightDecay: numberOption(fn, opts, 'weightDecay', 1e-2, nonNegative32, 'a finite number >= 0 in float32'),
    clip: numberOption(fn, opts, 'clip', 0, nonNegative32, 'a finite number >= 0 in float32 (0: off)'),
  };
}
