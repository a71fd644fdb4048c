// What to do about a bank's reason code, in the reader's language: English keeps the domain's
// sentence byte for byte, bokmål reads the catalogue's, and a code without one reads NARR's.
import { describe, expect, it } from 'vitest';
import { actionFor } from '../../src/domain/line-message.js';
import { lineAction, reasonAction, translate } from '../../src/i18n/index.js';

const CODES = ['DT01', 'AC01', 'AC02', 'AC03', 'AC04', 'AC06', 'AG01', 'AM03', 'AM04', 'AM05', 'AM12', 'AM18'].concat([
  'RR01',
  'RR03',
  'RR07',
  'RC11',
  'CH16',
  'FF01',
  'DS02',
  'MS03',
  'NARR',
]);

describe('what to do about a reason code', () => {
  it('the English catalogue says what the domain says, for every code', () => {
    for (const code of CODES) {
      expect(translate('en', `reasonAction.${code}` as 'reasonAction.NARR')).toBe(actionFor(code));
      expect(reasonAction(code, 'en')).toBe(actionFor(code));
      expect(reasonAction(code, 'nb')).not.toBe(actionFor(code));
    }
    expect(actionFor('XX99')).toBe(actionFor('NARR'));
    expect(reasonAction('XX99', 'nb')).toBe(reasonAction('NARR', 'nb'));
    expect(reasonAction('AC04', 'nb')).toBe(
      'Kontoen er avsluttet: be kreditor om nytt kontonummer og send betalingen i en ny fil.',
    );
  });

  it('a line message keeps an action that says more than its code’s sentence in its English', () => {
    const returned = {
      code: 'AC04',
      action: `The payment was paid and came back to the debtor account. ${actionFor('AC04')}`,
    };
    expect(lineAction(returned, 'nb')).toBe(returned.action);
    expect(lineAction({ code: 'AC04', action: actionFor('AC04') }, 'nb')).toBe(reasonAction('AC04', 'nb'));
    expect(lineAction({ code: 'AC04', action: actionFor('AC04') }, 'en')).toBe(actionFor('AC04'));
  });
});
