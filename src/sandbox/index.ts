// The bank sandbox: a stateful simulator of the banking API (docs/sandbox.md).
export { buildServer, DEPRECATED_VERSIONS, SUPPORTED_VERSIONS } from './server.js';
export { Sandbox, type Link } from './sandbox.js';
export { advanceClock } from './scheduler.js';
export { SEED } from './seed.js';
export { startSandbox, type RunningSandbox, type SandboxUrls } from './start.js';
export type { SandboxOptions } from './options.js';
export { parseDuration } from './time.js';
