// The stage registry: the pipeline, the explanations and the tests all walk this one ordered list.
// Stages are data (no DOM, no TeX): the explorer keys its formulas and explanations by stage id
// (web/site/explain/stages.js), the figures draw the instances.
// A stage is
//   {
//     id,            the data-stage name ('q', 'weights', 'dq', ...)
//     group,         the id of a group below (where its card goes)
//     title,         short name ('Q'); noun: what it is ('queries'), from the catalog's
//                    'stage.<id>.noun' in the stage language (setStageLanguage)
//     tex,           (optional) the symbol with a superscript, 'W^Q': figures draw it as W<sup>Q</sup>
//     kind,          colour scale: 'signed' or 'weights'
//     available(ctx) -> boolean          (optional: e.g. X only for 'self' states)
//     caption(ctx) -> string             one sentence under it (optional)
//     instances(ctx) -> [{ tensor, label?, masked?, rowLabels?, colLabels?, attrs }]
//                                        one matrix per head/run shown in the card
//     editable(ctx) -> boolean           (optional) cells can be typed and scrubbed
//   }
// ctx = { state, result, head } (head: the head index the pipeline shows); cell = { head, run,
// batch, row, col, value }. Adding a stage (the backward pass, for instance) is one
// registerStage() call with { after } or { group } and its words in web/i18n's catalogs
// ('stage.<id>.noun', captions; 'stage.group.<id>.title' and '.lede' for a group).
//
// The words come in the stage language, one for the page: the figures read stage.noun and
// group.title as strings, so the explorer sets the language here when it sets its own.
import { stageMessage } from '../../i18n/stage-text.js';

const groups = [];
const stages = [];
let language = 'en';

/** The language of the stages' nouns, captions and band titles from now on ('en', 'zh-CN'). */
export function setStageLanguage(lang) {
  language = lang;
}

/** The stage language now: the figures' cards and cells speak it too. */
export const stageLanguage = () => language;

/** fn()'s result, drawn with the stages in `lang` and the page's language back after: a figure in another language than its page. */
export function withStageLanguage(lang, fn) {
  const page = language;
  language = lang;
  try {
    return fn();
  } finally {
    language = page;
  }
}

/** A stage's message in the stage language: stageText('stage.x.caption'). */
export const stageText = (key, params) => stageMessage(language, key, params);

/** A scoring's name ('scaled-dot') as a compared run's figures are labelled, in the stage language. */
export const scoringName = (scoring) => stageText(`stage.scoring.${scoring}`);

/** A group of stages shown as one band: { id }, its title and lede from the catalog. */
export function registerGroup(group, { after } = {}) {
  insert(
    groups,
    Object.defineProperties(
      { ...group },
      {
        title: { get: () => stageText(`stage.group.${group.id}.title`), enumerable: true },
        lede: { get: () => stageText(`stage.group.${group.id}.lede`), enumerable: true },
      },
    ),
    after,
  );
}

/** Adds a stage; { after: 'masked' } places it after that stage, otherwise at the end. */
export function registerStage(stage, { after } = {}) {
  if (stages.some((s) => s.id === stage.id)) throw new Error(`registerStage: '${stage.id}' is registered already`);
  insert(stages, Object.defineProperty({ ...stage }, 'noun', { get: () => stageText(`stage.${stage.id}.noun`), enumerable: true }), after);
}

function insert(list, item, after) {
  const at = after ? list.findIndex((x) => x.id === after) : -1;
  if (at >= 0) list.splice(at + 1, 0, item);
  else list.push(item);
}

export const allGroups = () => groups.slice();
export const allStages = () => stages.slice();
export const stageById = (id) => stages.find((s) => s.id === id) ?? null;

/** The stages of a group that the context has. */
export function stagesOf(groupId, ctx) {
  return stages.filter((s) => s.group === groupId && (!s.available || s.available(ctx)));
}
