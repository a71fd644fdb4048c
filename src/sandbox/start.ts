// Starting a sandbox in-process (tests, the demo) or from the CLI: listen, learn the port,
// and hand back the URLs plus a handle to move time and stop.
import type { FastifyInstance } from 'fastify';
import type { SandboxOptions } from './options.js';
import { Sandbox } from './sandbox.js';
import { advanceClock } from './scheduler.js';
import { SEED } from './seed.js';
import { buildServer } from './server.js';

export interface SandboxUrls {
  /** The banking API's {base_url}. */
  baseUrl: string;
  /** The identity provider's {auth_url}; the token endpoint is {authUrl}/{tenant}/connect/token. */
  authUrl: string;
  tokenUrl: string;
  controlUrl: string;
}

export interface RunningSandbox {
  urls: SandboxUrls;
  sandbox: Sandbox;
  app: FastifyInstance;
  /** Moves sandbox time forward by ms and applies what fell due. */
  advance(ms: number): Date;
  reset(): void;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = new Sandbox(options);
  const app = buildServer(sandbox);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const stopFollowing = sandbox.options.followRealTime ? followRealTime(sandbox) : () => undefined;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  sandbox.origin = `http://${shownHost}:${port}`;
  const urls: SandboxUrls = {
    baseUrl: `${sandbox.origin}/api`,
    authUrl: `${sandbox.origin}/id`,
    tokenUrl: `${sandbox.origin}/id/${SEED.tenant}/connect/token`,
    controlUrl: `${sandbox.origin}/__sandbox`,
  };
  return {
    urls,
    sandbox,
    app,
    advance: (ms) => advanceClock(sandbox, ms),
    reset: () => sandbox.reset(),
    close: async () => {
      stopFollowing();
      sandbox.events.close();
      await app.close();
    },
  };
}

/**
 * Moves the sandbox clock on by the real time that passed, once a second, applying what fell
 * due; a jump made through the control API is kept (the clock runs on from there).
 */
function followRealTime(sandbox: Sandbox): () => void {
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    if (now > last) advanceClock(sandbox, now - last);
    last = now;
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
