// The final camt.029 for a camt.055 request the first answer left pending (PDCR): once the request
// ends — the bank confirmed CANC (ACCR), or the payment went on and the bank's status closed the
// request refused (RJCR) — the ERP gets one more resolution of investigation for that transaction,
// in the status folder beside the first. Written by the status report, so after every submit,
// status poll and nightly run; once per request (the row records it). The document's time is the
// request's end, so a crash between writing and recording rewrites the same bytes under the same name.
import { posix } from 'node:path';
import type { CompanyConfig } from '../../src/config/index.js';
import { writeCamt029, type Camt029Transaction, type Camt029Version } from '../../src/formats/camt029/index.js';
import { distinctPairs, type StandIn } from '../../src/formats/xml/identifier.js';
import type { Logger } from '../../src/log/index.js';
import type { Store, StoredCancellation } from '../../src/store/index.js';
import type { FileStore } from '../../src/transport/index.js';

export interface FinalAnswerDeps {
  store: Pick<Store, 'cancellationAnswers' | 'shortIdentifiers'>;
  logger: Logger;
}

/** Writes the company's due final answers; returns their paths, relative to the company's root. */
export async function writeFinalCamt029Answers(
  deps: FinalAnswerDeps,
  company: CompanyConfig,
  fileStore: FileStore,
): Promise<string[]> {
  const written: string[] = [];
  for (const due of await deps.store.cancellationAnswers.due(company.id)) {
    const version = (due.erpAnswerVersion ?? '001.09') as Camt029Version;
    const standIns: StandIn[] = [];
    const xml = writeCamt029(
      {
        // Assgnmt/Id is at most 35 characters: STL and the request's UUID without dashes.
        messageId: `STL${due.id.replace(/-/g, '')}`,
        createdAt: due.outcomeAt ?? due.requestedAt,
        assignerName: 'settle',
        assigneeName: company.name,
        resolvedCaseId: due.erpCaseId ?? due.erpMessageId ?? due.id,
        transactions: [finalTransaction(due)],
      },
      version,
      standIns,
    );
    await deps.store.shortIdentifiers.remember(distinctPairs(standIns));
    const name = `${due.erpFile ?? 'camt.055'}.final-${due.id}.camt.029.${version}.xml`;
    const path = posix.join(company.folders.status, name);
    await fileStore.ensureDir(company.folders.status);
    await fileStore.writeAtomic(path, xml);
    await deps.store.cancellationAnswers.markFinal(due.id);
    deps.logger.info('final camt.029 written for a cancellation the bank had left pending', {
      company: company.id,
      requestId: due.id,
      outcome: due.outcome,
      path,
    });
    written.push(path);
  }
  return written;
}

function finalTransaction(due: StoredCancellation): Camt029Transaction {
  const base = {
    cancellationStatusId: due.id,
    // A camt.055 names its payment by end-to-end id: that is the request's reference.
    originalEndToEndId: due.ref,
    ...(due.erpInstructionId ? { originalInstructionId: due.erpInstructionId } : {}),
  };
  if (due.outcome === 'cancelled' || due.outcome === 'withdrawn') return { ...base, status: 'ACCR' };
  return {
    ...base,
    status: 'RJCR',
    reasonCode: 'NOT_CANCELLABLE',
    reasonText: `${due.erpFile ?? 'camt.055'}: ${due.outcomeDetail ?? 'the bank did not cancel it'}`,
  };
}
