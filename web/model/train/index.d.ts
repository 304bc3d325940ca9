// attention-lab/train: seeded training tasks for `attn.transformer` (their batches carry the loss
// targets and masks trainStep takes), the accuracy of a model's logits on a batch, and the head
// scores that find previous-token and induction heads in a model's traced attentions.
//
// Errors: options that are not an object, sizes that are not integers, a text that is not a string
// (TypeError); sizes out of range, periods that do not fit the vocabulary or the length, tensors
// whose shapes disagree (RangeError). Each message names the argument and what was expected.

/** A tensor as these functions give and take it: data in C order (last axis fastest). */
export interface TaskTensor<D extends ArrayLike<number> = ArrayLike<number>> {
  data: D;
  shape: number[];
}

/**
 * A batch of B sequences of length T, ready for
 * `model.trainStep(batch.tokens, { targets: batch.targets, lossMask: batch.lossMask, optimizer })`:
 * targets[b, t] = tokens[b, t + 1]; lossMask marks the predictions the task counts.
 */
export interface TaskBatch {
  tokens: TaskTensor<Int32Array>;
  targets: TaskTensor<Int32Array>;
  lossMask: TaskTensor<Uint8Array>;
}

export interface InductionBatch extends TaskBatch {
  /** Each sequence's period P (B). */
  periods: Int32Array;
  /** (B, T): the predictions the sequence determines (t >= P). */
  predictable: TaskTensor<Uint8Array>;
}

export interface Task<Batch extends TaskBatch = TaskBatch> {
  /** The vocabulary size (the model's `vocab`). */
  readonly vocab: number;
  /** T, the sequences' length (at most the model's `maxLength`). */
  readonly length: number;
  /** The next batch of B sequences (B an integer >= 1): the same seed gives the same batches. */
  next(B: number): Batch;
}

export interface InductionTaskOptions {
  /** Integer in [0, 2^32); default 0. */
  seed?: number;
  /** Default 26 (the letters). */
  vocab?: number;
  /** T; default 24. */
  length?: number;
  /** [low, high]: P drawn per sequence, 1 <= low <= high <= vocab, high < length; default [5, 12]. */
  periods?: [number, number];
}

export interface InductionTask extends Task<InductionBatch> {
  /** 'abc...z' when vocab is 26, else null. */
  readonly letters: string | null;
}

export interface SequenceTaskOptions {
  seed?: number;
  /** The symbols x is drawn from (ids 0 .. symbols - 1); default 10. */
  symbols?: number;
  /** x's length; T = 2n + 1; default 8. */
  n?: number;
}

export interface SequenceTask extends Task<TaskBatch> {
  /** The separator's id (= symbols); vocab = symbols + 1. */
  readonly separator: number;
}

export interface TextTaskOptions {
  seed?: number;
  /** T; default 32; the text holds at least T characters. */
  length?: number;
}

export interface TextTask extends Task<TaskBatch> {
  /** id -> character: the text's distinct characters by code point. */
  readonly characters: string[];
  /** A string of the text's characters -> ids (RangeError on any other character). */
  encode(text: string): Int32Array;
}

/** P distinct random letters repeated to T, P varying per sequence; every next token counted (tools/model/train_induction.py's task). */
export function inductionTask(options?: InductionTaskOptions): InductionTask;
/** x (n symbols), a separator, x again; only the predictions of the copy counted. */
export function copyTask(options?: SequenceTaskOptions): SequenceTask;
/** x, a separator, x reversed. */
export function reverseTask(options?: SequenceTaskOptions): SequenceTask;
/** x, a separator, x sorted ascending. */
export function sortTask(options?: SequenceTaskOptions): SequenceTask;
/** Windows of T characters of `text`, every next character counted. */
export function textTask(text: string, options?: TextTaskOptions): TextTask;

/**
 * The share of the counted positions whose argmax of logits (B, T, V) is the target; counted:
 * `mask` (B, T), default the batch's lossMask. NaN when nothing is counted.
 */
export function accuracy(logits: TaskTensor, batch: { targets: TaskTensor; lossMask: TaskTensor }, mask?: TaskTensor): number;

/** Per layer and head, indexed [layer][head] from 0. */
export interface HeadScores {
  /** Mean weight from query t to key t - 1. */
  previousToken: number[][];
  /** Mean weight from query t >= P to key t - P + 1 (the token after the earlier occurrence). */
  induction: number[][];
}

/**
 * The scores of every head from attentions (B, L, H, T, T) (`model.forward(tokens, { trace: true })
 * .trace.attentions`) on sequences of periods `periods` (B integers in [1, T)).
 */
export function headScores(attentions: TaskTensor, periods: ArrayLike<number>): HeadScores;

/** The scores above which a head counts as a previous-token head (0.3) or an induction head (0.4). */
export const HEAD_THRESHOLDS: Readonly<{ previousToken: number; induction: number }>;
