// Composition of the statement jobs' dependencies from the App (the composition root). The
// lead may fold these into App as `fetchStatementsDeps(runId)` / `exportStatementsDeps(runId)`;
// until then the CLI builds them here. The bank client is owned by the caller and closed by it.
import { type ExportStatementsDeps, type FetchStatementsDeps, ownPaymentSource } from '../../jobs/statements/index.js';
import type { BankClient } from '../bank/index.js';
import { runLogger } from '../log/index.js';
import { ExportRepository, ExportFloorRepository, LegalSequenceRepository, PaymentRepository } from '../store/index.js';
import { StatementDayRepository } from '../store/index.js';
import { StatementRepository } from '../store/index.js';
import type { App } from './app.js';
import { createBankClient } from './bank.js';

export function fetchStatementsDeps(
  app: App,
  runId: string,
  bank: BankClient = createBankClient(app.config, app.logger, { clock: app.clock }),
): FetchStatementsDeps {
  return {
    bank,
    statements: new StatementRepository(app.db, app.clock),
    days: new StatementDayRepository(app.db, app.clock),
    clock: app.clock,
    logger: runLogger(app.logger, 'fetch', runId),
    timeZone: app.config.timeZone,
    accountStatus: app.store.accountStatus,
  };
}

export function exportStatementsDeps(app: App, runId: string): ExportStatementsDeps {
  return {
    statements: new StatementRepository(app.db, app.clock),
    days: new StatementDayRepository(app.db, app.clock),
    exports: new ExportRepository(app.db, app.clock),
    payments: new PaymentRepository(app.db, app.clock),
    legalSequence: new LegalSequenceRepository(app.db, app.clock),
    exportFloors: new ExportFloorRepository(app.db),
    clock: app.clock,
    logger: runLogger(app.logger, 'export', runId),
    timeZone: app.config.timeZone,
    fileStore: (company) => app.fileStores.fileStore(company),
    // camt.054 debit notifications match bookings to payments with reconciliation's own rules.
    ownPayments: ownPaymentSource(app.store, app.reconcileDeps(runId).config),
    shortIdentifiers: app.store.shortIdentifiers,
  };
}
