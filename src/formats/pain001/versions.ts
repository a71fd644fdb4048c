// Which pain.001 messages the reader accepts, decided by the root element's namespace, and how
// the versions differ. One reader serves them all: the element policy (element-rules.ts) is the
// union of their elements, and the differences are names it reads both ways (BIC/BICFI,
// ReqdExctnDt as a date or as Dt/DtTm) or elements it judges like any other. The test
// test/formats/pain001/versions.test.ts holds this table to each version's schema
// (test/fixtures/xsd/pain001), and docs/formats/pain001.md shows it.

export interface Pain001Version {
  /** The name settle reports as the file's format, e.g. "pain.001.001.09". */
  version: string;
  namespace: string;
  /** Who defines it, for a national variant. */
  variant?: string;
  /** The schema file in test/fixtures/xsd/pain001. */
  xsd: string;
  /** How PmtInf/ReqdExctnDt is written. */
  executionDate: 'date' | 'Dt or DtTm';
  /** The element that holds a bank's BIC (CdtrAgt/FinInstnId/…). */
  bic: 'BIC' | 'BICFI';
  /** What the version adds to the one before it that the element policy judges (not carried unless it says so). */
  adds?: string;
}

const ISO = 'urn:iso:std:iso:20022:tech:xsd:';

export const PAIN001_VERSIONS: readonly Pain001Version[] = [
  {
    version: 'pain.001.001.03',
    namespace: `${ISO}pain.001.001.03`,
    xsd: 'pain.001.001.03.xsd',
    executionDate: 'date',
    bic: 'BIC',
  },
  {
    version: 'pain.001.001.04',
    namespace: `${ISO}pain.001.001.04`,
    xsd: 'pain.001.001.04.xsd',
    executionDate: 'date',
    bic: 'BICFI',
    adds: 'BICFI for BIC; PmtInf/InstrForDbtrAgt (refused)',
  },
  {
    version: 'pain.001.001.05',
    namespace: `${ISO}pain.001.001.05`,
    xsd: 'pain.001.001.05.xsd',
    executionDate: 'date',
    bic: 'BICFI',
    adds: 'CdtTrfTxInf/SplmtryData (refused)',
  },
  {
    version: 'pain.001.001.06',
    namespace: `${ISO}pain.001.001.06`,
    xsd: 'pain.001.001.06.xsd',
    executionDate: 'date',
    bic: 'BICFI',
    adds: 'RmtInf/Strd/TaxRmt and GrnshmtRmt (refused)',
  },
  {
    version: 'pain.001.001.07',
    namespace: `${ISO}pain.001.001.07`,
    xsd: 'pain.001.001.07.xsd',
    executionDate: 'date',
    bic: 'BICFI',
    adds: 'RfrdDocInf/LineDtls (inside a refused element)',
  },
  {
    version: 'pain.001.001.08',
    namespace: `${ISO}pain.001.001.08`,
    xsd: 'pain.001.001.08.xsd',
    executionDate: 'Dt or DtTm',
    bic: 'BICFI',
    adds: 'ReqdExctnDt as Dt or DtTm (the date part is carried)',
  },
  {
    version: 'pain.001.001.09',
    namespace: `${ISO}pain.001.001.09`,
    xsd: 'pain.001.001.09.xsd',
    executionDate: 'Dt or DtTm',
    bic: 'BICFI',
    adds: 'PmtId/UETR, FinInstnId/LEI, account Prxy (ignored)',
  },
  {
    version: 'pain.001.001.10',
    namespace: `${ISO}pain.001.001.10`,
    xsd: 'pain.001.001.10.xsd',
    executionDate: 'Dt or DtTm',
    bic: 'BICFI',
    adds: 'PmtInf/ReqdAdvcTp, CdtTrfTxInf/MndtRltdInf, GrpHdr/InitnSrc (ignored)',
  },
  {
    version: 'pain.001.001.11',
    namespace: `${ISO}pain.001.001.11`,
    xsd: 'pain.001.001.11.xsd',
    executionDate: 'Dt or DtTm',
    bic: 'BICFI',
    adds: 'more address elements (inside ignored addresses)',
  },
  {
    version: 'pain.001.001.12',
    namespace: `${ISO}pain.001.001.12`,
    xsd: 'pain.001.001.12.xsd',
    executionDate: 'Dt or DtTm',
    bic: 'BICFI',
    adds: 'RfrdDocInf/RltdDt as Dt and Tp (inside a refused element)',
  },
  {
    version: 'pain.001.003.03',
    namespace: `${ISO}pain.001.003.03`,
    variant: 'German DK (Deutsche Kreditwirtschaft, DFÜ-Abkommen Anlage 3): a SEPA subset of .001.03',
    xsd: 'pain.001.003.03.xsd',
    executionDate: 'date',
    bic: 'BIC',
  },
  {
    version: 'pain.001.001.03.ch.02',
    namespace: 'http://www.six-interbank-clearing.com/de/pain.001.001.03.ch.02.xsd',
    variant: 'Swiss (SIX, Swiss Payment Standards 2009): a subset of .001.03 under its own namespace',
    xsd: 'pain.001.001.03.ch.02.xsd',
    executionDate: 'date',
    bic: 'BIC',
  },
  {
    version: 'pain.001.001.09',
    namespace: `${ISO}pain.001.001.09`,
    variant:
      'Swiss (SIX, Swiss Payment Standards 2019 and later, "ch.03"): a subset of .001.09 under the ISO namespace, so it is read, and reported, as pain.001.001.09',
    xsd: 'pain.001.001.09.ch.03.xsd',
    executionDate: 'Dt or DtTm',
    bic: 'BICFI',
  },
];

/** Namespace → the version reported for it (the Swiss ch.03 shares .09's namespace). */
export const PAIN001_NAMESPACES: Readonly<Record<string, string>> = Object.fromEntries(
  PAIN001_VERSIONS.map((v) => [v.namespace, v.version]),
);

/** The versions, as an error message lists them. */
export const SUPPORTED_VERSIONS = [...new Set(PAIN001_VERSIONS.map((v) => v.version))].join(', ');

export function pain001Version(namespace: string): string | undefined {
  return PAIN001_NAMESPACES[namespace.trim()];
}
