// The command's two kinds of failure and their exit codes: 2 for a command line that is wrong
// whatever the file holds (unknown flag, missing -o, a value outside a flag's choices), 1 for input
// that does not fit (a file that cannot be read, a tensor that is not there, an index out of range).
export class UsageError extends Error {
  get exitCode() {
    return 2;
  }
}

export class InputError extends Error {
  get exitCode() {
    return 1;
  }
}
