// The head of a settle.yaml for tests against an in-process sandbox: the data folder and the
// bank's URLs, with the client secret read from BANK_SECRET (the sandbox's is SEED.clientSecret).
import type { RunningSandbox } from '../../src/sandbox/index.js';

export function sandboxConfigHead(dir: string, sandbox: RunningSandbox): string[] {
  return [
    `dataDir: ${dir}/data`,
    'bank:',
    `  baseUrl: ${sandbox.urls.baseUrl}`,
    `  authUrl: ${sandbox.urls.authUrl}`,
    '  clientSecret: { env: BANK_SECRET }',
  ];
}
