// The web console of `settle serve` (docs/console.md): the shell and its pages.
export { buildConsoleServer, CONSOLE_CSP, type ConsoleServer } from './server.js';
export type { ConsoleLocalUser, ConsoleOidcOptions, ConsoleOptions } from './options.js';
export type * from './page.js';
