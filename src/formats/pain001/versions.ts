// Which pain.001 messages the reader accepts, decided by the root element's namespace. The
// supported versions differ only in names the reader maps both ways (BIC/BICFI, ReqdExctnDt
// as a date or as Dt/DtTm), so one reader serves them all.
export const PAIN001_NAMESPACES: Readonly<Record<string, string>> = {
  'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03': 'pain.001.001.03',
  'urn:iso:std:iso:20022:tech:xsd:pain.001.001.08': 'pain.001.001.08',
  'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09': 'pain.001.001.09',
  'http://www.six-interbank-clearing.com/de/pain.001.001.03.ch.02.xsd': 'pain.001.001.03.ch.02',
};

export function pain001Version(namespace: string): string | undefined {
  return PAIN001_NAMESPACES[namespace.trim()];
}
