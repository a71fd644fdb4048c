// What the operator's pages share (src/server/console/pages/operator.tsx): the refusal for
// anyone but an operator, the reason every decision carries, the console without a bank.
import { area } from './area.js';

export const operator = area({
  en: {
    'operator.notAllowed.title': 'Not allowed',
    'operator.notAllowed.body':
      'Only an operator of this company may {what, select, releaseHeld {release or reject a held payment} resolveBulk {resolve an unknown bulk} confirmCancellation {confirm a cancellation} declineCancellation {decline a cancellation} cancelPayment {cancel a payment} other {do this}}.',
    'operator.withoutBank.title': 'Not available',
    'operator.withoutBank.body': 'This console was started without the bank connection cancelling needs.',
    'operator.reasonMissing.title': 'Reason missing',
    'operator.reasonMissing.body': 'Say why, in your words; it is kept in the audit trail.',
    'operator.reason': 'Reason',
  },
  nb: {
    'operator.notAllowed.title': 'Ikke tillatt',
    'operator.notAllowed.body':
      'Bare en operatør i dette selskapet kan {what, select, releaseHeld {frigi eller avvise en holdt betaling} resolveBulk {avklare en ukjent bunt} confirmCancellation {bekrefte en kansellering} declineCancellation {avslå en kansellering} cancelPayment {kansellere en betaling} other {gjøre dette}}.',
    'operator.withoutBank.title': 'Ikke tilgjengelig',
    'operator.withoutBank.body': 'Denne konsollen ble startet uten bankforbindelsen som kansellering trenger.',
    'operator.reasonMissing.title': 'Begrunnelse mangler',
    'operator.reasonMissing.body': 'Si hvorfor, med dine egne ord; det lagres i revisjonsloggen.',
    'operator.reason': 'Begrunnelse',
  },
});
