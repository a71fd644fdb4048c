// The document-size limit of payment intake (intake.maxFileSize; `settle validate
// --max-file-size`): its default, and the words every refusal uses, so the configuration, the
// command line, the readers and the receivables job say the same size the same way.

/** The largest payment file read when none is configured: 1 GiB (a 1,000,000-payment pain.001 laid out like samples/erp has about 504 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 1024 ** 3;

/** Where the limit is set, as every refusal names it. */
export const FILE_SIZE_SETTING = 'intake.maxFileSize (for settle validate: --max-file-size)';

/** "1.2 GiB", "350 MiB", "12 KiB", "800 bytes". */
export function formatBytes(bytes: number): string {
  for (const [unit, factor] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (bytes >= factor) return `${(bytes / factor).toFixed(1).replace(/\.0$/, '')} ${unit}`;
  return `${bytes} bytes`;
}

/**
 * FILE_TOO_LARGE's message: the file's size, the limit, the setting and what to do (`payments`:
 * a payment file, which `settle validate` also reads; receivables files have only the setting).
 */
export function fileTooLargeMessage(bytes: number, limit: number, kind: 'payments' | 'receivables'): string {
  const option = kind === 'payments' ? ' (for settle validate: --max-file-size)' : '';
  return `the file has ${formatBytes(bytes)} (${bytes.toLocaleString('en-US')} bytes); the limit is ${formatBytes(limit)} (intake.maxFileSize): split it into smaller files, or raise the limit${option}`;
}
