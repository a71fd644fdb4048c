// Signing in and out of the console (src/server/console/sign-in.tsx), in the browser's language.
import { area } from './area.js';

export const signIn = area({
  en: {
    'signIn.title': 'Sign in',
    'signIn.withCompanyAccount': 'Sign in with your company account',
    'signIn.username': 'User name',
    'signIn.password': 'Password',
    'signIn.submit': 'Sign in',
    'signIn.expired': 'The sign-in form expired. Please try again.',
    'signIn.wrong': 'Wrong user name or password.',
    'signIn.tooMany':
      'Too many failed sign-ins {by, select, user {under this user name} other {from this address}}. Try again in {minutes, plural, one {# minute} other {# minutes}}.',
    'signIn.oidcTooLong': 'The sign-in took too long or was started elsewhere. Please sign in again.',
    'signIn.oidcNotConfirmed': 'The identity provider did not confirm the sign-in. Please sign in again.',
    'signIn.oidcNoEmail': 'The identity provider gave no verified e-mail address; settle matches people by e-mail.',
    'signIn.noAccess.title': 'No access',
    'signIn.noAccess.body':
      'You signed in as {email}, but no company lists this address among its people. Ask an operator to add you to <code>companies[].people</code> in the configuration.',
    'signIn.refused.title': 'Refused',
    'signIn.refused.body': 'The form was not sent from this console (no valid CSRF token).',
  },
  nb: {
    'signIn.title': 'Logg inn',
    'signIn.withCompanyAccount': 'Logg inn med selskapets konto',
    'signIn.username': 'Brukernavn',
    'signIn.password': 'Passord',
    'signIn.submit': 'Logg inn',
    'signIn.expired': 'Innloggingsskjemaet er utløpt. Prøv igjen.',
    'signIn.wrong': 'Feil brukernavn eller passord.',
    'signIn.tooMany':
      'For mange mislykkede innlogginger {by, select, user {med dette brukernavnet} other {fra denne adressen}}. Prøv igjen om {minutes, plural, one {# minutt} other {# minutter}}.',
    'signIn.oidcTooLong': 'Innloggingen tok for lang tid eller ble startet et annet sted. Logg inn på nytt.',
    'signIn.oidcNotConfirmed': 'Identitetsleverandøren bekreftet ikke innloggingen. Logg inn på nytt.',
    'signIn.oidcNoEmail':
      'Identitetsleverandøren oppga ingen bekreftet e-postadresse; settle kjenner igjen personer på e-post.',
    'signIn.noAccess.title': 'Ingen tilgang',
    'signIn.noAccess.body':
      'Du logget inn som {email}, men ingen selskaper har denne adressen blant sine personer. Be en operatør legge deg til i <code>companies[].people</code> i konfigurasjonen.',
    'signIn.refused.title': 'Avvist',
    'signIn.refused.body': 'Skjemaet ble ikke sendt fra denne konsollen (ingen gyldig CSRF-nøkkel).',
  },
});
