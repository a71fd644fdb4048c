// The open elements of a pain.001 document while it streams past. Frames are pooled per depth
// and reused (no allocation per element), and an element's XPath is built only when something
// needs it (a captured field, an issue).
import { REPEATED, type PolicyNode } from './element-policy.js';

export interface Frame {
  name: string;
  /** Position among same-name siblings (1-based): the XPath step is "PmtInf[2]" when it matters. */
  position: number;
  parent: Frame | undefined;
  path: string | undefined;
  /** Where the element is in the mapped paths of the open PmtInf or CdtTrfTxInf, if anywhere. */
  node: PolicyNode | undefined;
  hasChildren: boolean;
  /**
   * Position counting of same-name children. pain.001 repeats elements only as consecutive
   * siblings (xs:sequence), so counting runs of one name gives the XPath position.
   */
  lastChild: string;
  lastCount: number;
  /** The policy node of the last child (undefined when it had none): a repeat of it is the same node. */
  lastNode: PolicyNode | undefined;
  text: string;
}

/** A frame for an element at `depth` (1-based), reusing the pooled one of that depth. */
// Called once per XML element of the file: an options object would be an allocation per element,
// which the frame pool exists to avoid.
// eslint-disable-next-line max-params
export function enterFrame(
  pool: Frame[],
  depth: number,
  name: string,
  position: number,
  parent: Frame | undefined,
  node: PolicyNode | undefined,
): Frame {
  let frame = pool[depth - 1];
  if (frame) {
    frame.name = name;
    frame.position = position;
    frame.parent = parent;
    frame.path = undefined;
    frame.node = node;
    frame.hasChildren = false;
    frame.lastChild = '';
    frame.lastCount = 0;
    frame.lastNode = undefined;
    frame.text = '';
    return frame;
  }
  frame = {
    name,
    position,
    parent,
    path: undefined,
    node,
    hasChildren: false,
    lastChild: '',
    lastCount: 0,
    lastNode: undefined,
    text: '',
  };
  pool[depth - 1] = frame;
  return frame;
}

export function pathOf(frame: Frame): string {
  if (frame.path === undefined) {
    const step = frame.position > 1 || REPEATED.has(frame.name) ? `${frame.name}[${frame.position}]` : frame.name;
    frame.path = `${frame.parent ? pathOf(frame.parent) : ''}/${step}`;
  }
  return frame.path;
}

/**
 * Whether the frame and the `levels - 1` frames above it are each the first of their name: then
 * a payment's field is located by the payment's path and its node's `firstKey`, else step by step.
 */
export function firstOfTheirNames(frame: Frame, levels: number): boolean {
  let f: Frame | undefined = frame;
  for (let i = 0; i < levels && f; i++, f = f.parent) if (f.position !== 1) return false;
  return true;
}

/** A line feed and 0 to 64 spaces: the indentation most files have between two elements. */
const INDENTS = Array.from({ length: 65 }, (_, n) => `\n${' '.repeat(n)}`);

/** Only space, tab, CR and LF (a loop: this runs for the indentation between every two elements). */
export function isXmlWhitespace(t: string): boolean {
  // One comparison of strings in the runtime instead of a character at a time in JavaScript.
  const n = t.length;
  if (n > 0 && n <= INDENTS.length && t === INDENTS[n - 1]) return true;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}
