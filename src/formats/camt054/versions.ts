// camt.054 shares its entry structure with camt.053 of the same version (ReportEntry2 /
// ReportEntry10, read from the XSDs in shared/iso20022/xsd), so the differences are the camt.053
// dialect's under the camt.054 namespace.
import { CAMT053_DIALECTS, type Camt053Dialect } from '../camt053/versions.js';

export type Camt054Version = '001.02' | '001.08';

export const CAMT054_DIALECTS: Readonly<Record<Camt054Version, Camt053Dialect>> = {
  '001.02': { ...CAMT053_DIALECTS['001.02'], namespace: 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.02' },
  '001.08': { ...CAMT053_DIALECTS['001.08'], namespace: 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08' },
};
