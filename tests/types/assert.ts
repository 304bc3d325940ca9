// Compile-time assertions shared by the consumer files: `expectType<Equal<A, B>>(true)` fails to
// compile unless A and B are the same type (not merely assignable either way).
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export function expectType<T extends true>(value: T): T {
  return value;
}
