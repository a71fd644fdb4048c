// Every issue code is documented in docs/validation.md, and every ERR_ code of intake has its
// row in docs/errors.md: codes are a contract with scripts and operators.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IssueCode } from '../../../src/domain/validation/codes.js';
import { check } from './helpers.js';

const root = new URL('../../../', import.meta.url);
const validationDoc = readFileSync(new URL('docs/validation.md', root), 'utf8');
const errorsDoc = readFileSync(new URL('docs/errors.md', root), 'utf8');

describe('issue and error code documentation', () => {
  it.each(Object.values(IssueCode))('issue code %s is documented in docs/validation.md', (code) => {
    expect(validationDoc).toContain(`\`${code}\``);
  });

  it.each([
    'ERR_PROFILE_NOT_FOUND',
    'ERR_PROFILE_INVALID',
    'ERR_INTAKE_FILE_UNREADABLE',
    'ERR_INTAKE_PROFILE_REQUIRED',
    'ERR_VALIDATE_USAGE',
    'ERR_XML_DTD_FORBIDDEN',
  ])('%s has a row in docs/errors.md', (code) => {
    expect(errorsDoc).toMatch(new RegExp(`^\\| ${code} \\| [123] \\|`, 'm'));
  });
});

describe('issue limit', () => {
  it('keeps at most maxIssues issues, counts the rest and says so', async () => {
    const r = await check('rules/many-rules.csv', 'generic', {}, { maxIssues: 2 });
    expect(r.issues.map((i) => i.code)).toEqual(['IBAN_INVALID', 'AMOUNT_PRECISION', 'ISSUES_TRUNCATED']);
    expect(r.errors).toBe(6);
    expect(r.issues[2]!.message).toContain('4 more issue(s)');
  });
});
