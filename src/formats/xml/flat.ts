// A string written again and again (a renderer's tag text built once from its parts) as one flat
// piece. V8 keeps `a + b` and a template literal with values as a tree of the parts, and every
// document that includes such a string walks its tree again when the chunk is flattened for
// output: a constant of five parts cost its writer about 200 instructions a use more than one
// flat piece (docs/decisions/0018-writers-at-the-template.md). JSON's round trip makes a new
// sequential string with the same UTF-16 units, lone surrogates included.
export function flat(value: string): string {
  return JSON.parse(JSON.stringify(value)) as string;
}

/**
 * `value` made one piece in place, for a rendered element that a whole document in memory keeps
 * (a pain.002 line, a camt.054 entry). Reading a character makes V8 copy a tree of parts into one
 * sequential string that the tree's root then points to, so the parts die young: kept as a tree,
 * its few dozen parts were each copied by every young-generation collection they survived and
 * walked again when the document was flattened; the collector was about half of the writer's
 * count at 100,000 lines (docs/decisions/0018-writers-at-the-template.md, "pain.002 and
 * camt.054"). A string already flat costs a read. The text is the same either way; only the cost
 * depends on it.
 */
export function flattened(value: string): string {
  // Compared, so that no compiler drops the read as unused.
  return value.charCodeAt(0) === -1 ? '' : value;
}
