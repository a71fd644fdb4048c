// camt.055 reader: a customer payment cancellation request from the ERP (the message Nordic
// banks' host-to-host channels accept for this), versions 001.01, 001.08 and 001.09. A request
// names transactions of an earlier pain.001 by their end-to-end id; each becomes one
// cancellation request in settle. Any problem refuses the whole file with its line and element,
// so nothing of a half-read request is done. Elements read: docs/formats/camt055.md.
import { SaxesParser, type SaxesTagNS } from 'saxes';

export const CAMT055_VERSIONS = ['001.01', '001.08', '001.09'] as const;
export type Camt055Version = (typeof CAMT055_VERSIONS)[number];

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.055.';
/** A cancellation request is small; a larger file is not one. */
const MAX_CHARS = 5_000_000;
const MAX_DEPTH = 40;

export interface Camt055Transaction {
  /** 1-based line of the TxInf element in the file. */
  line: number;
  /** The XPath of the TxInf, for located answers. */
  path: string;
  cancellationId?: string;
  originalEndToEndId: string;
  originalInstructionId?: string;
  originalPaymentInformationId?: string;
  /** CxlRsnInf/Rsn/Cd or Prtry, and AddtlInf joined. */
  reasonCode?: string;
  reasonText?: string;
}

export interface Camt055Request {
  version: Camt055Version;
  /** Assgnmt/Id: the ERP's id of this message; the camt.029 quotes it. */
  assignmentId: string;
  /** Case/Id, when the ERP gave one. */
  caseId?: string;
  /** Assgnmt/Assgnr/Pty/Nm, when given: who asked, in the ERP's words. */
  assignerName?: string;
  transactions: Camt055Transaction[];
}

export interface Camt055Problem {
  line: number;
  path: string;
  message: string;
}

export type Camt055Result = { ok: true; request: Camt055Request } | { ok: false; problems: Camt055Problem[] };

interface Node {
  name: string;
  line: number;
  path: string;
  text: string;
  children: Node[];
}

/** True when the document's root is a camt.055 Document (a quick look at its first bytes). */
export function looksLikeCamt055(head: string): boolean {
  return head.includes(NAMESPACE) && /<(\w+:)?Document[\s>]/.test(head);
}

export function readCamt055(xml: string): Camt055Result {
  if (xml.length > MAX_CHARS)
    return fail(1, '/', `the file is larger than ${MAX_CHARS} characters; a cancellation request is small`);
  if (/<!DOCTYPE/i.test(xml)) return fail(1, '/', 'a document type declaration (DTD) is not allowed');
  const parsed = parse(xml);
  if ('problem' in parsed) return { ok: false, problems: [parsed.problem] };
  const { root, version } = parsed;
  const body = child(root, 'CstmrPmtCxlReq');
  if (!body) return fail(root.line, root.path, 'the Document has no CstmrPmtCxlReq (not a cancellation request)');
  const problems: Camt055Problem[] = [];
  const assignment = child(body, 'Assgnmt');
  const assignmentId = assignment && text(child(assignment, 'Id'));
  if (!assignment || !assignmentId)
    problems.push(at(assignment ?? body, `${body.path}/Assgnmt/Id`, 'Assgnmt/Id (the message id) is missing'));
  const caseNode = child(body, 'Case');
  const caseId = caseNode ? text(child(caseNode, 'Id')) : undefined;
  const assignerName = assignment ? text(descend(assignment, ['Assgnr', 'Pty', 'Nm'])) : undefined;
  const transactions: Camt055Transaction[] = [];
  const underlying = children(body, 'Undrlyg');
  if (underlying.length === 0) problems.push(at(body, `${body.path}/Undrlyg`, 'no Undrlyg: the request names nothing'));
  for (const u of underlying) {
    for (const pmtInf of children(u, 'OrgnlPmtInfAndCxl')) {
      const pmtInfId = text(child(pmtInf, 'OrgnlPmtInfId'));
      const txs = children(pmtInf, 'TxInf');
      if (txs.length === 0)
        problems.push(
          at(
            pmtInf,
            pmtInf.path,
            'cancelling a whole payment information block is not supported: name each transaction in TxInf with its OrgnlEndToEndId',
          ),
        );
      for (const tx of txs) {
        const e2e = text(child(tx, 'OrgnlEndToEndId'));
        if (!e2e) {
          problems.push(
            at(tx, `${tx.path}/OrgnlEndToEndId`, 'OrgnlEndToEndId is missing: settle finds the payment by it'),
          );
          continue;
        }
        const reason = child(tx, 'CxlRsnInf');
        const reasonCode = reason
          ? (text(descend(reason, ['Rsn', 'Cd'])) ?? text(descend(reason, ['Rsn', 'Prtry'])))
          : undefined;
        const reasonText = reason
          ? children(reason, 'AddtlInf')
              .map((n) => n.text.trim())
              .filter((t) => t !== '')
              .join(' ')
          : '';
        const cxlId = text(child(tx, 'CxlId'));
        const instrId = text(child(tx, 'OrgnlInstrId'));
        transactions.push({
          line: tx.line,
          path: tx.path,
          originalEndToEndId: e2e,
          ...(cxlId ? { cancellationId: cxlId } : {}),
          ...(instrId ? { originalInstructionId: instrId } : {}),
          ...(pmtInfId ? { originalPaymentInformationId: pmtInfId } : {}),
          ...(reasonCode ? { reasonCode } : {}),
          ...(reasonText ? { reasonText } : {}),
        });
      }
    }
    // 001.01 may also name transactions directly under Undrlyg (TxInf without a payment block).
    for (const tx of children(u, 'TxInf'))
      problems.push(
        at(tx, tx.path, 'a TxInf outside OrgnlPmtInfAndCxl names no payment of a pain.001; put it in its block'),
      );
  }
  if (problems.length > 0) return { ok: false, problems };
  if (transactions.length === 0) return fail(body.line, body.path, 'the request names no transaction');
  return {
    ok: true,
    request: {
      version,
      assignmentId: assignmentId!,
      ...(caseId ? { caseId } : {}),
      ...(assignerName ? { assignerName } : {}),
      transactions,
    },
  };
}

function parse(xml: string): { root: Node; version: Camt055Version } | { problem: Camt055Problem } {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: Node[] = [];
  let root: Node | undefined;
  let version: Camt055Version | undefined;
  let problem: Camt055Problem | undefined;
  const siblings = new Map<string, number>();
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (problem) return;
    const parent = stack[stack.length - 1];
    if (!parent) {
      const ns = tag.uri;
      const v = ns.startsWith(NAMESPACE) ? ns.slice(NAMESPACE.length) : '';
      if (tag.local !== 'Document' || !(CAMT055_VERSIONS as readonly string[]).includes(v)) {
        problem = {
          line: parser.line,
          path: `/${tag.local}`,
          message: `not a camt.055 (${CAMT055_VERSIONS.map((x) => `camt.055.${x}`).join(', ')}): the root is ${tag.local} in namespace "${ns}"`,
        };
        return;
      }
      version = v as Camt055Version;
    }
    if (stack.length >= MAX_DEPTH) {
      problem = { line: parser.line, path: parent?.path ?? '/', message: 'the document is nested too deeply' };
      return;
    }
    const base = parent ? parent.path : '';
    const key = `${base}/${tag.local}`;
    const n = (siblings.get(key) ?? 0) + 1;
    siblings.set(key, n);
    const node: Node = { name: tag.local, line: parser.line, path: `${key}[${n}]`, text: '', children: [] };
    if (parent) parent.children.push(node);
    else root = node;
    stack.push(node);
  });
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  parser.on('closetag', () => void stack.pop());
  try {
    parser.write(xml).close();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const m = /^(\d+):(\d+): (.*)$/s.exec(message);
    return {
      problem: {
        line: m ? Number(m[1]) : parser.line,
        path: stack[stack.length - 1]?.path ?? '/',
        message: `not well-formed XML: ${m ? m[3] : message}`,
      },
    };
  }
  if (problem) return { problem };
  if (!root || !version) return { problem: { line: 1, path: '/', message: 'the file has no root element' } };
  return { root, version };
}

function child(node: Node, name: string): Node | undefined {
  return node.children.find((c) => c.name === name);
}

function children(node: Node, name: string): Node[] {
  return node.children.filter((c) => c.name === name);
}

function descend(node: Node, names: readonly string[]): Node | undefined {
  let current: Node | undefined = node;
  for (const name of names) current = current && child(current, name);
  return current;
}

function text(node: Node | undefined): string | undefined {
  const t = node?.text.trim();
  return t === undefined || t === '' ? undefined : t;
}

function at(node: Node, path: string, message: string): Camt055Problem {
  return { line: node.line, path, message };
}

function fail(line: number, path: string, message: string): Camt055Result {
  return { ok: false, problems: [{ line, path, message }] };
}
