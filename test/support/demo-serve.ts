// A `settle serve` without a scheduler on the demo's configuration, with its console on a free
// port and the demo user signed in: for the tests that run jobs in other processes (the CLI) and
// look at what a running serve shows of them.
import { loadConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/log/index.js';
import { createApp, type App } from '../../src/main/app.js';
import { DEMO_CONSOLE } from '../../src/main/demo.js';
import { startServe, type RunningServe } from '../../src/main/serve.js';
import { Client } from '../console/client.js';

export async function withDemoServe(
  file: string,
  dir: string,
  fn: (serve: RunningServe, console: Client, app: App) => Promise<void>,
): Promise<void> {
  const loaded = loadConfig({ file, cwd: dir, env: {} });
  const app = await createApp({ ...loaded, console: { ...loaded.console, port: 0 } }, silentLogger());
  const serve = await startServe(app, { scheduler: false, port: 0 });
  try {
    const client = new Client(serve.consoleUrl!.replace(/\/console\/$/, ''));
    const signedIn = await client.signIn(DEMO_CONSOLE.username, DEMO_CONSOLE.password);
    if (signedIn.status !== 303) throw new Error(`the demo sign-in answered ${signedIn.status}`);
    await fn(serve, client, app);
  } finally {
    await serve.stop();
  }
}
