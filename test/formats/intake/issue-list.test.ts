// The issues of one file past its limit are counted, and handed on one by one to a caller that
// keeps them (pickup's complete JSON): every issue is either kept or handed on, never both.
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/domain/issue.js';
import { IssueList } from '../../../src/formats/intake/issue-list.js';

const issue = (row: number, severity: Issue['severity'] = 'error'): Issue => ({
  code: 'AMOUNT_INVALID',
  severity,
  location: { row },
  message: `row ${row}`,
});

describe('an issue list with a limit', () => {
  it('keeps the first issues, hands on the rest in order, and counts them all', () => {
    const more: Issue[] = [];
    const list = new IssueList(3, (i) => more.push(i));
    for (let row = 1; row <= 6; row++) list.add(issue(row, row === 5 ? 'warning' : 'error'));
    expect(list.list().map((i) => i.location.row ?? i.code)).toEqual([1, 2, 3, 'ISSUES_TRUNCATED']);
    expect(more.map((i) => i.location.row)).toEqual([4, 5, 6]);
    expect([list.errors, list.warnings]).toEqual([5, 1]);
  });

  it('lists an issue added first at the top and hands on the one it pushes out', () => {
    const more: Issue[] = [];
    const list = new IssueList(3, (i) => more.push(i));
    for (let row = 1; row <= 4; row++) list.add(issue(row));
    list.addFirst(issue(0, 'warning'));
    expect(list.list().map((i) => i.location.row ?? i.code)).toEqual([0, 1, 2, 'ISSUES_TRUNCATED']);
    expect(list.list().at(-1)?.message).toBe('2 more issue(s) were found but not listed (limit 3)');
    expect(more.map((i) => i.location.row)).toEqual([4, 3]);
  });

  it('hands on nothing within the limit', () => {
    const more: Issue[] = [];
    const list = new IssueList(3, (i) => more.push(i));
    list.add(issue(1));
    list.addFirst(issue(0, 'warning'));
    expect(list.list().map((i) => i.location.row)).toEqual([0, 1]);
    expect(more).toEqual([]);
  });
});
