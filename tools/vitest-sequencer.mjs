// The order Vitest starts test files in (vitest.config.js, sequence.sequencer): Vitest's own order
// (each project's files by their last run's duration, longest first; with no earlier run, as on a
// fresh clone, by file size), with the files named in `first` moved to the front of their project,
// in the order given. The projects that run two files at a time end with one file running alone
// when a long file starts last; file size is a poor guess of a page-driving file's length.
import { BaseSequencer } from 'vitest/node';

/** A sequencer class that starts `first` (paths relative to the repository root) first. */
export function startingWith(first) {
  const rank = (spec) => {
    const at = first.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
    return at < 0 ? first.length : at;
  };
  return class StartingWith extends BaseSequencer {
    async sort(files) {
      // Vitest's order keeps each project's files together: reorder within a project only.
      const projects = new Map();
      for (const spec of await super.sort(files)) {
        const name = spec.project.name;
        if (!projects.has(name)) projects.set(name, []);
        projects.get(name).push(spec);
      }
      // Array sort is stable: the files not named keep Vitest's order.
      return [...projects.values()].flatMap((specs) => specs.sort((a, b) => rank(a) - rank(b)));
    }
  };
}
