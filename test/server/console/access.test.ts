// The console's one access table (src/server/console/access.ts) against the pages and actions
// the router registers: none is left out (a path missing from the table opens for no one), the
// landing follows the broadest role, and a capability is refused to the roles docs/console.md
// does not give it.
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../../src/domain/roles.js';
import { ACCESS, ACTION_NEEDS, landingOf, mayDo, mayOpen, mayPost } from '../../../src/server/console/access.js';
import { CONSOLE_ACTIONS, CONSOLE_PAGES } from '../../../src/server/console/pages/index.js';

describe('the console access table', () => {
  it('names every registered page (some role opens it) and every action (a capability)', () => {
    for (const p of CONSOLE_PAGES)
      expect([p.path, ROLES.some((r) => mayOpen({ roles: [r] }, p.path))]).toEqual([p.path, true]);
    expect(CONSOLE_ACTIONS.map((a) => a.path).sort()).toEqual(Object.keys(ACTION_NEEDS).sort());
    // Nothing in the table that no page is: a typo would leave a page closed to everyone.
    const paths = new Set(CONSOLE_PAGES.map((p) => p.path));
    for (const role of ROLES)
      for (const page of ACCESS[role].pages) expect([role, page, paths.has(page)]).toEqual([role, page, true]);
  });

  it('refuses a path it does not know, to every role and to an auditor', () => {
    for (const role of ROLES) {
      expect(mayOpen({ roles: [role], auditor: true }, '/console/nowhere')).toBe(false);
      expect(mayPost({ roles: [role], auditor: true }, '/console/nowhere')).toBe(false);
    }
  });

  it('gives each capability to the roles docs/console.md names, and the audit trail to auditors', () => {
    const holders = (c: Parameters<typeof mayDo>[1]) => ROLES.filter((r) => mayDo({ roles: [r] }, c)).sort();
    expect(holders('decide-findings')).toEqual(['finance', 'operator']);
    expect(holders('sign-off')).toEqual(['finance', 'operator']);
    expect(holders('show-approval-link')).toEqual(['approver']);
    expect(holders('operate')).toEqual(['operator']);
    expect(holders('verify-audit')).toEqual(['operator']);
    expect(mayDo({ roles: [], auditor: true }, 'verify-audit')).toBe(true);
    expect(mayOpen({ roles: [], auditor: true }, '/console/audit')).toBe(true);
    expect(mayOpen({ roles: [], auditor: true }, '/console/files')).toBe(false);
    expect(mayOpen({ roles: ['viewer'] }, '/console/reconciliation')).toBe(false);
    expect(mayOpen({ roles: ['approver'] }, '/console/statements')).toBe(false);
  });

  it('lands an approver on Approvals, and anyone with a broader role on Today', () => {
    expect(landingOf(['approver'])).toBe('/console/approvals');
    expect(landingOf(['viewer', 'approver'])).toBe('/console/approvals');
    expect(landingOf(['approver', 'finance'])).toBe('/console/');
    expect(landingOf(['viewer'])).toBe('/console/');
    expect(landingOf([])).toBe('/console/');
  });
});
