// A string written again and again (a renderer's tag text built once from its parts) as one flat
// piece. V8 keeps `a + b` and a template literal with values as a tree of the parts, and every
// document that includes such a string walks its tree again when the chunk is flattened for
// output: a constant of five parts cost its writer about 200 instructions a use more than one
// flat piece (docs/decisions/0018-writers-at-the-template.md). JSON's round trip makes a new
// sequential string with the same UTF-16 units, lone surrogates included.
export function flat(value: string): string {
  return JSON.parse(JSON.stringify(value)) as string;
}
