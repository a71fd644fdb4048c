// camt.029 writer: the resolution of investigation that answers an ERP's camt.055 cancellation
// request, one document per request message, one TxInfAndSts per transaction it named: ACCR
// (cancelled), PDCR (pending: the bank or a second person has not confirmed yet) or RJCR with the
// reason and where in the camt.055 the transaction was. Versions 001.03 (answering camt.055.001.01)
// and 001.09 (answering .08/.09). Elements and their sources: docs/formats/camt029.md.
import { splitAtWords } from '../pain002/write.js';
import { XmlChunkWriter } from '../xml/chunk-writer.js';
import { formatDateTime } from '../xml/date-time.js';
import { identifier, standInText, type StandIn } from '../xml/identifier.js';
import { prepareText } from '../xml/text.js';

export type Camt029Version = '001.03' | '001.09';
/** ACCR accepted (cancelled), PDCR pending, RJCR rejected (camt.029 CancellationIndividualStatus1Code). */
export type CancellationStatus = 'ACCR' | 'PDCR' | 'RJCR';

export interface Camt029Transaction {
  /** settle's id of the cancellation request (CxlStsId), when one was made. */
  cancellationStatusId?: string;
  originalInstructionId?: string;
  originalEndToEndId: string;
  status: CancellationStatus;
  /** Short reason code, e.g. ACSP or NOT_FOUND (written as Rsn/Prtry). */
  reasonCode?: string;
  /** The reason in words, with where in the camt.055 (split over AddtlInf at word boundaries). */
  reasonText?: string;
}

export interface Camt029Report {
  /** Our id of this answer (Assgnmt/Id). */
  messageId: string;
  createdAt: Date;
  /** settle (the assigner of the answer) and the company (its assignee and the case's creator). */
  assignerName: string;
  assigneeName: string;
  /** The ERP's case id, else its camt.055 Assgnmt/Id: the case this resolves. */
  resolvedCaseId: string;
  transactions: readonly Camt029Transaction[];
}

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.029.';
const MAX_ADDITIONAL_INFO = 5;

/**
 * The document. Ids longer than their field are written as stand-ins, added to `standIns` for the
 * caller to store; a transaction's own stand-ins are spelled out in its CxlStsRsnInf/AddtlInf.
 */
export function writeCamt029(report: Camt029Report, version: Camt029Version, standIns: StandIn[] = []): string {
  const t = (value: string, max: number) => prepareText(value, max).text ?? '';
  const id = (value: string, element: string, own?: StandIn[]) => {
    const before = standIns.length;
    const written = identifier(value, 35, element, standIns) ?? 'NOTPROVIDED';
    own?.push(...standIns.slice(before));
    return written;
  };
  const w = new XmlChunkWriter({ chunkSize: Number.MAX_SAFE_INTEGER });
  const party = (name: string) => {
    w.open('Pty');
    w.leaf('Nm', t(name, 140));
    w.close();
  };
  w.open('Document', 'xmlns', `${NAMESPACE}${version}`);
  w.open('RsltnOfInvstgtn');
  w.open('Assgnmt');
  w.leaf('Id', id(report.messageId, 'Assgnmt/Id'));
  w.open('Assgnr');
  party(report.assignerName);
  w.close();
  w.open('Assgne');
  party(report.assigneeName);
  w.close();
  w.leaf('CreDtTm', formatDateTime(report.createdAt));
  w.close();
  w.open('RslvdCase');
  w.leaf('Id', id(report.resolvedCaseId, 'RslvdCase/Id'));
  w.open('Cretr');
  party(report.assigneeName);
  w.close();
  w.close();
  w.open('Sts');
  w.leaf('Conf', overall(report.transactions));
  w.close();
  w.open('CxlDtls');
  for (const tx of report.transactions) {
    w.open('TxInfAndSts');
    const own: StandIn[] = [];
    if (tx.cancellationStatusId) w.leaf('CxlStsId', id(tx.cancellationStatusId, 'CxlStsId', own));
    if (tx.originalInstructionId) w.leaf('OrgnlInstrId', id(tx.originalInstructionId, 'OrgnlInstrId', own));
    w.leaf('OrgnlEndToEndId', id(tx.originalEndToEndId, 'OrgnlEndToEndId', own));
    w.leaf('TxCxlSts', tx.status);
    const ids = standInText(own);
    if (tx.reasonCode !== undefined || tx.reasonText !== undefined || ids !== undefined) {
      w.open('CxlStsRsnInf');
      if (tx.reasonCode !== undefined) {
        w.open('Rsn');
        w.leaf('Prtry', t(tx.reasonCode, 35));
        w.close();
      }
      // The stand-ins first, in AddtlInf of their own, so the reason's text still reads whole after them.
      const parts = [ids, tx.reasonText].flatMap((x) =>
        x ? splitAtWords(prepareText(x, 10_000).text ?? '', 105) : [],
      );
      for (const part of parts.slice(0, MAX_ADDITIONAL_INFO)) w.leaf('AddtlInf', part);
      w.close();
    }
    w.close();
  }
  w.close();
  w.close();
  w.close();
  return w.finish();
}

/**
 * The answer as a whole: CNCL when every transaction was cancelled, RJCR when none was, PDCR
 * while any waits, and PECR (partially executed) when some were cancelled and others refused.
 */
function overall(transactions: readonly Camt029Transaction[]): string {
  const statuses = new Set(transactions.map((tx) => tx.status));
  if (statuses.has('PDCR')) return 'PDCR';
  if (statuses.size === 1 && statuses.has('ACCR')) return 'CNCL';
  if (statuses.size === 1 && statuses.has('RJCR')) return 'RJCR';
  return 'PECR';
}
