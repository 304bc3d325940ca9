// attention-lab/train, the package entry: it exports the tasks and head scores, and bad input of
// every kind gets a TypeError or RangeError that names the argument, with the entry working after.
import { describe, expect, it } from 'vitest';
import * as entry from 'attention-lab/train';
import { accuracy, copyTask, headScores, HEAD_THRESHOLDS, inductionTask, reverseTask, sortTask, textTask } from 'attention-lab/train';

describe('the attention-lab/train entry', () => {
  it('exports the five tasks, accuracy, headScores and the thresholds', () => {
    expect(Object.keys(entry).sort()).toEqual([
      'HEAD_THRESHOLDS',
      'accuracy',
      'copyTask',
      'headScores',
      'inductionTask',
      'reverseTask',
      'sortTask',
      'textTask',
    ]);
    expect(HEAD_THRESHOLDS).toEqual({ previousToken: 0.3, induction: 0.4 });
    expect(Object.isFrozen(HEAD_THRESHOLDS)).toBe(true);
  });

  it.each([
    ['options that are not an object', () => inductionTask(3), TypeError, 'inductionTask: options must be an object'],
    ['a seed that is not a number', () => copyTask({ seed: '1' }), TypeError, 'copyTask: seed must be an integer'],
    ['a negative seed', () => sortTask({ seed: -1 }), RangeError, 'sortTask: seed must be an integer in [0, 2^32)'],
    ['a fractional vocabulary', () => inductionTask({ vocab: 2.5 }), RangeError, 'inductionTask: vocab must be an integer >= 1'],
    ['periods that are not a pair', () => inductionTask({ periods: 5 }), TypeError, 'inductionTask: periods must be an array [low, high]'],
    ['periods longer than the sequence', () => inductionTask({ periods: [5, 24] }), RangeError, 'inductionTask: periods must be [low, high]'],
    ['periods above the vocabulary', () => inductionTask({ vocab: 8, periods: [5, 9] }), RangeError, 'high <= vocab'],
    ['a length of 1', () => inductionTask({ length: 1 }), RangeError, 'inductionTask: length must be an integer >= 2'],
    ['zero symbols', () => reverseTask({ symbols: 0 }), RangeError, 'reverseTask: symbols must be an integer >= 1'],
    ['a text that is not a string', () => textTask(['a', 'b']), TypeError, 'textTask: text must be a string'],
    ['a text shorter than the length', () => textTask('abc', { length: 8 }), RangeError, 'textTask: text must hold at least length = 8'],
  ])('refuses %s', (_, call, type, message) => {
    expect(call).toThrow(type);
    expect(call).toThrow(message);
  });

  it.each([
    ['induction', () => inductionTask(), 'inductionTask: next: B'],
    ['copy', () => copyTask(), 'copyTask: next: B'],
    ['text', () => textTask('the quick brown fox jumps over the lazy dog'), 'textTask: next: B'],
  ])('the %s task refuses a batch size of 0, 1.5 or "4", and draws the next batch after', (_, make, message) => {
    const task = make();
    for (const B of [0, 1.5, '4']) expect(() => task.next(B)).toThrow(message);
    expect(() => task.next(0)).toThrow(RangeError);
    expect(() => task.next('4')).toThrow(TypeError);
    expect(task.next(2).tokens.shape).toEqual([2, task.length]);
  });

  it('accuracy refuses logits that are not (B, T, V) and targets or masks of another size', () => {
    const batch = inductionTask().next(2);
    const logits = { data: new Float32Array(2 * 24 * 26), shape: [2, 24, 26] };
    expect(() => accuracy(null, batch)).toThrow(new TypeError('accuracy: logits must be a tensor { data: a typed array, shape }, got null'));
    expect(() => accuracy({ data: logits.data, shape: [48, 26] }, batch)).toThrow('accuracy: logits must have 3 sizes >= 1, got shape [48,26]');
    expect(() => accuracy({ data: logits.data, shape: [2, 24, 25] }, batch)).toThrow('accuracy: logits has shape [2,24,25] (1200 values) but holds 1248');
    expect(() => accuracy(logits, undefined)).toThrow(TypeError);
    expect(() => accuracy(logits, { ...batch, targets: { data: new Int32Array(47) } })).toThrow(
      new RangeError('accuracy: batch.targets must hold B * T = 48 values (logits (B, T, V) = (2, 24, 26)), got 47'),
    );
    expect(() => accuracy(logits, batch, { data: [1, 0] })).toThrow('accuracy: mask must be a tensor');
    expect(accuracy(logits, batch, batch.predictable)).toBeGreaterThanOrEqual(0);
  });

  it('headScores refuses attentions that are not (B, L, H, T, T) and periods that do not fit', () => {
    const attentions = { data: new Float32Array(2 * 1 * 2 * 6 * 6), shape: [2, 1, 2, 6, 6] };
    expect(() => headScores({ data: attentions.data, shape: [2, 2, 6, 6] }, [2, 3])).toThrow('headScores: attentions must have 5 sizes');
    expect(() => headScores({ data: new Float32Array(2 * 2 * 6 * 5), shape: [2, 1, 2, 6, 5] }, [2, 3])).toThrow(
      new RangeError('headScores: attentions must be (B, L, H, T, T) (self-attention), got shape [2,1,2,6,5]'),
    );
    expect(() => headScores(attentions, 3)).toThrow(new TypeError('headScores: periods must be an array or typed array of B = 2 periods, got number'));
    expect(() => headScores(attentions, [2])).toThrow(new RangeError('headScores: periods must hold one period per sequence, B = 2, got 1'));
    expect(() => headScores(attentions, [2, 6])).toThrow(new RangeError('headScores: periods[1] must be an integer in [1, T) = [1, 6), got 6'));
    expect(() => headScores(attentions, [2, 1.5])).toThrow('periods[1]');
    expect(headScores(attentions, [2, 3]).induction).toEqual([[0, 0]]);
  });
});
