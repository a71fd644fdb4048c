// Held payments (src/server/console/pages/held.tsx): payments settle's payment controls hold.
import { area } from './area.js';

export const held = area({
  en: {
    'held.title': 'Held payments',
    'held.intro':
      'These payments look like a payment already accepted from another file, or an earlier line of their own file, or a payment control held them (a changed or new creditor account, a limit, a file at an unusual time; see docs/controls.md). Nothing is sent until a person decides.',
    'held.caption': 'Payments held for a person, oldest first',
    'held.column.fileAndLine': 'File and line',
    'held.column.e2e': 'End-to-end id',
    'held.column.rule': 'Rule',
    'held.column.why': 'Why held',
    'held.column.held': 'Held',
    'held.column.decide': 'Decide',
    'held.none': 'none',
    'held.line': '<file>{name}</file>, line {line}',
    'held.twoPeople': 'needs two people',
    'held.twoPeopleFirst': 'needs two people: released once by {person}, waiting for a second person',
    'held.looksLike': 'The payment it looks like',
    'held.release': 'Release (send it)',
    'held.drop': 'Reject (never send it)',
    'held.notDecided': 'Not decided',
    'held.reason.otherFile':
      'likely duplicate: same creditor account, amount and reference as line {line} (end-to-end id {e2e}) of "{file}", accepted {at} UTC',
    'held.reason.sameFile':
      'likely duplicate: same creditor account, amount and reference as line {line} (end-to-end id {e2e}) of this file',
  },
  nb: {
    'held.title': 'Holdte betalinger',
    'held.intro':
      'Disse betalingene ligner en betaling som allerede er lest inn fra en annen fil, eller en tidligere linje i samme fil, eller en betalingskontroll holdt dem tilbake (ny eller endret kreditorkonto, en beløpsgrense, en fil på et uvanlig tidspunkt; se docs/controls.md). Ingenting sendes før en person bestemmer.',
    'held.caption': 'Betalinger holdt tilbake til en person bestemmer, eldste først',
    'held.column.fileAndLine': 'Fil og linje',
    'held.column.e2e': 'Ende-til-ende-ID',
    'held.column.rule': 'Regel',
    'held.column.why': 'Hvorfor holdt',
    'held.column.held': 'Holdt',
    'held.column.decide': 'Bestem',
    'held.none': 'ingen',
    'held.line': '<file>{name}</file>, linje {line}',
    'held.twoPeople': 'krever to personer',
    'held.twoPeopleFirst': 'krever to personer: frigitt én gang av {person}, venter på en person til',
    'held.looksLike': 'Betalingen den ligner',
    'held.release': 'Frigi (send den)',
    'held.drop': 'Avvis (send den aldri)',
    'held.notDecided': 'Ikke bestemt',
    'held.reason.otherFile':
      'mulig dublett: samme kreditorkonto, beløp og referanse som linje {line} (ende-til-ende-ID {e2e}) i «{file}», lest inn {at} UTC',
    'held.reason.sameFile':
      'mulig dublett: samme kreditorkonto, beløp og referanse som linje {line} (ende-til-ende-ID {e2e}) i samme fil',
  },
});
