import { expect } from 'vitest';

/** The error `call` throws (or undefined), for tests that look at an error's name, message and cause. */
export function thrown(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The rejection of `promise`; a result is an error of the test itself. */
export async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a result');
}

/** The error the synchronous API throws for `syncCall`, then the parallel API's rejection: same type and message. */
export async function expectSameError(syncCall, parallelCall) {
  const expected = thrown(syncCall);
  expect(expected, 'the synchronous call should throw').toBeInstanceOf(Error);
  const actual = await parallelCall().then(
    () => new Error('the parallel call resolved'),
    (error) => error,
  );
  expect(actual.constructor).toBe(expected.constructor);
  expect(actual.message).toBe(expected.message);
}
