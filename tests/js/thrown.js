/** The error `call` throws (or undefined), for tests that look at an error's name, message and cause. */
export function thrown(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}
