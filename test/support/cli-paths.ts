// Where the CLI tests find the compiled settle (built by test/support/cli-build.ts).
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the package, so the CLI finds package.json, config/profiles and node_modules as dist/ does. */
export const CLI_BUILD_DIR = `${ROOT}.test-cli`;
export const CLI_MAIN = `${CLI_BUILD_DIR}/src/cli/main.js`;
