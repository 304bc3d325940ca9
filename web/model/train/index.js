// attention-lab/train: seeded training tasks for attn.transformer, their accuracy, and the head
// scores that tell a previous-token head and an induction head (index.d.ts documents each).
export { accuracy, copyTask, inductionTask, reverseTask, sortTask, textTask } from './tasks.js';
export { HEAD_THRESHOLDS, headScores } from './head-scores.js';
