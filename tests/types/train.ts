// A consumer of 'attention-lab/train' (web/model/train/index.d.ts): every task with every option,
// each batch's fields, accuracy with and without a mask, the head scores and their thresholds.
import {
  accuracy,
  copyTask,
  headScores,
  HEAD_THRESHOLDS,
  inductionTask,
  reverseTask,
  sortTask,
  textTask,
  type HeadScores,
  type InductionBatch,
  type InductionTask,
  type InductionTaskOptions,
  type SequenceTask,
  type SequenceTaskOptions,
  type Task,
  type TaskBatch,
  type TaskTensor,
  type TextTask,
  type TextTaskOptions,
} from 'attention-lab/train';
import { expectType, type Equal } from './assert.js';

const inductionOptions = { seed: 1, vocab: 26, length: 24, periods: [5, 12] } satisfies Required<InductionTaskOptions>;
const sequenceOptions = { seed: 2, symbols: 10, n: 6 } satisfies Required<SequenceTaskOptions>;
const textOptions = { seed: 3, length: 8 } satisfies Required<TextTaskOptions>;

const induction: InductionTask = inductionTask(inductionOptions);
const batch: InductionBatch = induction.next(4);
const periods: Int32Array = batch.periods;
const predictable: Uint8Array = batch.predictable.data;
const letters: string | null = induction.letters;
const sequences: SequenceTask[] = [copyTask(sequenceOptions), reverseTask(sequenceOptions), sortTask(), copyTask()];
const separator: number = sequences[0].separator;
const text: TextTask = textTask('the quick brown fox', textOptions);
const ids: Int32Array = text.encode('the');
const characters: string[] = text.characters;
const plain: TaskBatch = text.next(2);
const anyTask: Task = text;
const tokens: TaskTensor<Int32Array> = plain.tokens;
const mask: Uint8Array = plain.lossMask.data;
expectType<Equal<typeof batch.targets.data, Int32Array>>(true);

const logits: TaskTensor = { data: new Float32Array(4 * 24 * 26), shape: [4, 24, 26] };
const share: number = accuracy(logits, batch) + accuracy(logits, batch, batch.predictable);
const scores: HeadScores = headScores({ data: new Float32Array(4 * 2 * 24 * 24), shape: [4, 1, 2, 24, 24] }, periods);
const strongest: number = Math.max(...scores.previousToken[0], ...scores.induction[0]);
const crossed: boolean = strongest > HEAD_THRESHOLDS.induction || strongest > HEAD_THRESHOLDS.previousToken;

export const used = [anyTask.length, induction.vocab, induction.length, predictable, letters, separator, ids, characters, tokens, mask, share, crossed];
