// The words of the document-size limit: every refusal gives the size, the limit and the setting.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FILE_BYTES, fileTooLargeMessage, formatBytes } from '../../src/domain/validation/file-size.js';

describe('the document-size limit', () => {
  it('defaults to 1 GiB', () => {
    expect(formatBytes(DEFAULT_MAX_FILE_BYTES)).toBe('1 GiB');
  });

  it('says sizes in the largest whole binary unit, one decimal at most', () => {
    expect(formatBytes(800)).toBe('800 bytes');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(3077)).toBe('3 KiB');
    expect(formatBytes(490_000_000)).toBe('467.3 MiB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GiB');
  });

  it('names the setting, and the option of settle validate only for payment files', () => {
    const payments = fileTooLargeMessage(2_000_000, 1_000_000, 'payments');
    expect(payments).toBe(
      'the file has 1.9 MiB (2,000,000 bytes); the limit is 976.6 KiB (intake.maxFileSize): split it into smaller files, or raise the limit (for settle validate: --max-file-size)',
    );
    const receivables = fileTooLargeMessage(2_000_000, 1_000_000, 'receivables');
    expect(receivables).toContain('(intake.maxFileSize)');
    expect(receivables).not.toContain('settle validate');
  });
});
