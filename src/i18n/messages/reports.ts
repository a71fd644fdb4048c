// Opening a report settle wrote, from the console (src/server/console/pages/reports.tsx).
import { area } from './area.js';

export const reports = area({
  en: {
    'reports.link': '<link>{name}</link> (<when></when>)',
    'reports.noSuchReport': 'No such report',
    'reports.noReportWithId': 'The company has no report with this id.',
    'reports.notAllowed': 'Not allowed',
    'reports.reconciliationFor': 'Reconciliation reports are for finance, payroll and operators.',
    'reports.title': 'Report',
  },
  nb: {
    'reports.link': '<link>{name}</link> (<when></when>)',
    'reports.noSuchReport': 'Rapporten finnes ikke',
    'reports.noReportWithId': 'Selskapet har ingen rapport med denne id-en.',
    'reports.notAllowed': 'Ikke tillatt',
    'reports.reconciliationFor': 'Avstemmingsrapporter er for økonomi, lønn og operatører.',
    'reports.title': 'Rapport',
  },
});
