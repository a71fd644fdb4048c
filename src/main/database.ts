// Opens the database the configuration names. A separately configured password (a secret) is
// put into a mysql:// URL here, at the last moment, so it never sits in plain config.
import type { Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { openDatabase, type Database } from '../store/index.js';

export function databaseUrl(config: Pick<Config, 'database'>): string {
  const { url, password } = config.database;
  if (!password || !/^mysql:\/\//.test(url)) return url;
  const parsed = new URL(url);
  if (!parsed.password) parsed.password = encodeURIComponent(password.reveal());
  return parsed.toString();
}

export function openConfiguredDatabase(
  config: Pick<Config, 'database' | 'dataDir'>,
  logger?: Logger,
): Promise<Database> {
  return openDatabase({ url: databaseUrl(config), dataDir: config.dataDir, ...(logger ? { logger } : {}) });
}
