// The one identity rule of four eyes (src/domain/person.ts): a login is its configured person id,
// else its address trimmed and case-folded; a command-line name is itself, case-folded.
import { describe, expect, it } from 'vitest';
import { personClashes, personOf, samePerson, type PersonDirectory } from '../../src/domain/person.js';

const directory: PersonDirectory = {
  localUsers: [
    { username: 'kari', email: 'kari@acme.example' },
    { username: 'ola', email: 'ola.private@mail.example', person: 'ola' },
  ],
  people: [{ email: 'Kari@Acme.example' }, { email: 'ola@acme.example', person: 'ola' }],
};

describe('who a login is', () => {
  it('is the address, case and spaces aside, for a local and an OIDC login alike', () => {
    const local = personOf({ id: 'local:kari' }, directory);
    const oidc = personOf({ id: 'oidc:https://idp#77', email: ' KARI@acme.EXAMPLE ' }, directory);
    expect(local).toBe('kari@acme.example');
    expect(samePerson(local, oidc)).toBe(true);
  });

  it('is the configured person id when a login or the address names one', () => {
    expect(personOf({ id: 'local:ola' }, directory)).toBe('ola');
    expect(personOf({ id: 'oidc:https://idp#9', email: 'OLA@acme.example' }, directory)).toBe('ola');
  });

  it('takes a command-line name as itself, case-folded, and an address given there as that person', () => {
    expect(samePerson(personOf({ id: 'Kari' }, directory), personOf({ id: ' kari' }, directory))).toBe(true);
    expect(personOf({ id: 'ola@ACME.example' }, directory)).toBe('ola');
    expect(samePerson(personOf({ id: 'kari' }, directory), personOf({ id: 'ola' }, directory))).toBe(false);
  });

  it('finds two local users that are one person without saying so', () => {
    const clashes = personClashes({
      localUsers: [
        { username: 'kari', email: 'kari@acme.example' },
        { username: 'kari2', email: 'KARI@acme.example' },
        { username: 'k3', email: 'kari@acme.example', person: 'kari' },
      ],
      people: [],
    });
    expect(clashes.map((c) => [c.index, c.other])).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });
});
