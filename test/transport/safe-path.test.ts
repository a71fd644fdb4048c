import { describe, expect, it } from 'vitest';
import { isSettleError } from '../../src/domain/errors.js';
import { checkFileName, checkRelativePath, joinPath, splitPath } from '../../src/transport/index.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return isSettleError(error) ? `${error.code}/${error.exitCode}` : 'other';
  }
  return 'ok';
}

describe('safe paths', () => {
  it('accepts plain relative paths and treats "", "." and a trailing slash kindly', () => {
    expect(checkRelativePath('')).toEqual([]);
    expect(checkRelativePath('.')).toEqual([]);
    expect(checkRelativePath('inbox/')).toEqual(['inbox']);
    expect(checkRelativePath('company-a/inbox/pay 2026-01.csv')).toEqual(['company-a', 'inbox', 'pay 2026-01.csv']);
    expect(checkRelativePath('..names-starting-with-dots..csv')).toEqual(['..names-starting-with-dots..csv']);
  });

  it.each([
    '../x',
    'a/../../x',
    'a/./b',
    '/etc/passwd',
    'a//b',
    'a\\b',
    'tab\there',
    'line\nbreak',
    'del\u007F',
    'c1\u0085',
    'rtl\u202Eoverride',
    'isolate\u2066x',
  ])('refuses %j with ERR_FILE_NAME_UNSAFE (exit 1)', (bad) => {
    expect(codeOf(() => checkRelativePath(bad))).toBe('ERR_FILE_NAME_UNSAFE/1');
  });

  it('refuses separators and dot names where a bare file name is expected', () => {
    expect(checkFileName('payments.csv')).toBe('payments.csv');
    for (const bad of ['a/b.csv', '', '.', '..', 'x\\y', 'bell\u0007'])
      expect(codeOf(() => checkFileName(bad))).toBe('ERR_FILE_NAME_UNSAFE/1');
    expect(codeOf(() => joinPath('inbox', '../etc'))).toBe('ERR_FILE_NAME_UNSAFE/1');
    expect(joinPath('inbox/', 'a.csv')).toBe('inbox/a.csv');
    expect(joinPath('', 'a.csv')).toBe('a.csv');
  });

  it('splits a file path into folder and name, and refuses the root as a file', () => {
    expect(splitPath('a/b/c.csv')).toEqual({ dir: 'a/b', name: 'c.csv' });
    expect(splitPath('c.csv')).toEqual({ dir: '', name: 'c.csv' });
    expect(codeOf(() => splitPath(''))).toBe('ERR_FILE_NAME_UNSAFE/1');
  });

  it('puts the refused name in the message in escaped form, so control characters cannot forge log lines', () => {
    try {
      checkRelativePath('x\nERROR fake line');
    } catch (error) {
      expect((error as Error).message).toContain('"x\\nERROR fake line"');
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
