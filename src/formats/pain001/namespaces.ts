// XML namespaces for the pain.001 reader, resolved by settle rather than by saxes. saxes's own
// namespace mode builds, for every element, a prefix/local pair, a scope object and a walk up
// the open elements to resolve the prefix: about a seventh of its work on a pain.001 file, where
// only the root element's namespace (the message version) matters and prefixes are rare. So
// saxes runs without it, and this scope does the same checks only where a file declares a
// namespace or uses a prefix, failing through the parser (`parser.fail`) with saxes's own
// messages, so a document that breaks the Namespaces in XML rules is refused as before.
import type { SaxesAttribute, SaxesParser } from 'saxes';

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

interface Declared {
  /** Depth (1-based) of the element that declared the binding. */
  depth: number;
  prefix: string;
  previous: string | undefined;
}

export class NamespaceScope {
  /** Prefix → namespace, as bound at the open element ('' the default namespace). */
  private readonly bound = new Map<string, string>([
    ['xml', XML_NAMESPACE],
    ['xmlns', XMLNS_NAMESPACE],
  ]);
  private readonly declared: Declared[] = [];
  /** Names of the attributes of the element being opened (declarations included), in order. */
  private readonly pending: string[] = [];
  /** The prefix of the element last opened ('' for none). */
  private prefix = '';

  constructor(private readonly parser: SaxesParser) {}

  /**
   * An attribute of the element being opened, as saxes reads it (before the element is open):
   * its name is checked, and a declaration binds its prefix for the element and what it holds.
   */
  attribute(attr: SaxesAttribute, depth: number): void {
    const name = attr.name;
    this.pending.push(name);
    const colon = name.indexOf(':');
    if (colon !== -1) this.checkName(name, colon);
    if (name === 'xmlns') this.declare('', attr.value.trim(), depth);
    else if (colon === 5 && name.startsWith('xmlns')) {
      const uri = attr.value.trim();
      if (uri === '' && (this.parser.xmlDecl.version ?? '1.0') === '1.0')
        this.parser.fail('invalid attempt to undefine prefix in XML 1.0');
      this.declare(name.slice(6), uri, depth);
    }
  }

  /**
   * The element's local name once its start tag is read (its namespace is then `uri`); attributes
   * with a prefix must have it bound, and no two attributes may have the same expanded name.
   * An element without a prefix or attributes (nearly all of them) costs one search for a colon.
   */
  open(name: string): string {
    const colon = name.indexOf(':');
    let local = name;
    this.prefix = '';
    if (colon !== -1) {
      const prefix = (this.prefix = name.slice(0, colon));
      local = name.slice(colon + 1);
      this.checkName(name, colon);
      if (prefix === 'xmlns') this.parser.fail('tags may not have "xmlns" as prefix.');
      if (!this.bound.get(prefix)) this.parser.fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
    }
    if (this.pending.length > 0) this.checkAttributes();
    return local;
  }

  /** The namespace of the element last opened (its prefix's, or the default one). */
  get uri(): string {
    return this.bound.get(this.prefix) || this.prefix;
  }

  /** The element at `depth` closes: the bindings it declared end. */
  close(depth: number): void {
    const declared = this.declared;
    for (let last = declared[declared.length - 1]; last && last.depth >= depth; last = declared[declared.length - 1]) {
      declared.pop();
      if (last.previous === undefined) this.bound.delete(last.prefix);
      else this.bound.set(last.prefix, last.previous);
    }
  }

  private declare(prefix: string, uri: string, depth: number): void {
    pairCheck(this.parser, prefix, uri);
    this.declared.push({ depth, prefix, previous: this.bound.get(prefix) });
    this.bound.set(prefix, uri);
  }

  private checkName(name: string, colon: number): void {
    if (colon === 0 || colon === name.length - 1 || name.indexOf(':', colon + 1) !== -1)
      this.parser.fail(`malformed name: ${name}.`);
  }

  private checkAttributes(): void {
    // One attribute without a prefix (an amount's Ccy) has nothing to resolve and nothing to repeat.
    if (this.pending.length === 1 && !this.pending[0]!.includes(':')) {
      this.pending.length = 0;
      return;
    }
    const seen = new Set<string>();
    for (const name of this.pending) {
      const colon = name.indexOf(':');
      let expanded = name;
      if (colon > 0) {
        const prefix = name.slice(0, colon);
        let uri = this.bound.get(prefix);
        if (uri === undefined || uri === '') {
          this.parser.fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
          uri = prefix;
        }
        expanded = `{${uri}}${name.slice(colon + 1)}`;
      }
      if (seen.has(expanded)) this.parser.fail(`duplicate attribute: ${expanded}.`);
      seen.add(expanded);
    }
    this.pending.length = 0;
  }
}

/** saxes's checks of a declaration: the reserved prefixes and namespaces. */
function pairCheck(parser: SaxesParser, prefix: string, uri: string): void {
  if (prefix === 'xml' && uri !== XML_NAMESPACE) parser.fail(`xml prefix must be bound to ${XML_NAMESPACE}.`);
  if (prefix === 'xmlns' && uri !== XMLNS_NAMESPACE) parser.fail(`xmlns prefix must be bound to ${XMLNS_NAMESPACE}.`);
  if (uri === XMLNS_NAMESPACE)
    parser.fail(
      prefix === ''
        ? `the default namespace may not be set to ${uri}.`
        : `may not assign a prefix (even "xmlns") to the URI ${XMLNS_NAMESPACE}.`,
    );
  else if (uri === XML_NAMESPACE && prefix !== 'xml')
    parser.fail(
      prefix === ''
        ? `the default namespace may not be set to ${uri}.`
        : `may not assign the xml namespace to another prefix.`,
    );
}
