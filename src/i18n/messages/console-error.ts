// The console's own error pages (src/server/console/server.tsx): a request that failed or could not
// be read, and a page that does not exist. Nobody may be signed in, so the browser's language decides.
import { area } from './area.js';

export const consoleError = area({
  en: {
    'consoleError.failed.title': 'Something went wrong',
    'consoleError.failed.body':
      'settle could not show this page; the reason is in its log. Nothing was changed unless the page said so.',
    'consoleError.badRequest.title': 'Bad request',
    'consoleError.badRequest.body': 'The request could not be read.',
    'consoleError.notFound.title': 'Not found',
    'consoleError.notFound.back': 'Back to the console',
  },
  nb: {
    'consoleError.failed.title': 'Noe gikk galt',
    'consoleError.failed.body':
      'settle kunne ikke vise denne siden; årsaken står i loggen. Ingenting ble endret, med mindre siden sa det.',
    'consoleError.badRequest.title': 'Ugyldig forespørsel',
    'consoleError.badRequest.body': 'Forespørselen kunne ikke leses.',
    'consoleError.notFound.title': 'Fant ikke siden',
    'consoleError.notFound.back': 'Tilbake til konsollet',
  },
});
