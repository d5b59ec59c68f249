/**
 * Ajv's generated code, made linear in the number of errors. With `allErrors`, a `$ref` (and a keyword with
 * its own errors) hands its errors to its caller as `vErrors = vErrors === null ? E : vErrors.concat(E);`:
 * each failing array item copies every error found before it, so a descriptor of n bad metrics took time
 * in n² (40,000 of them, under 2 MB: 8 s of validation; 130,000: minutes). Appended in place, the same
 * errors come in the same order. Ajv itself already writes into an array it took over that way (its own
 * errors are `push`ed), so nothing reads such an array as the callee's any more.
 */
const CONCAT = /vErrors = vErrors === null \? ([\w$.]+) : vErrors\.concat\(\1\);/g;

/** Ajv's `code.process`: the generated source with every such concatenation an append. */
export function appendErrorsInPlace(source: string): string {
  return source.replace(
    CONCAT,
    (_, errors: string) =>
      `if (vErrors === null) vErrors = ${errors}; else for (const e of ${errors}) vErrors.push(e);`,
  );
}

/** How many concatenations a source holds (the test's check that Ajv still writes them so). */
export function concatenations(source: string): number {
  return source.match(CONCAT)?.length ?? 0;
}
