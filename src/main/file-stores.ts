// One FileStore per company, built from its transport: a local folder or a pinned SFTP server.
// SFTP connections are shared by the companies that use the same transport and root.
import type { CompanyConfig, Config } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { LocalFileStore, SftpFileStore, type FileStore } from '../transport/index.js';

/** Where each company's folders are. */
export interface FileStoreProvider {
  fileStore(company: CompanyConfig): Promise<FileStore>;
  /** A reload's transports: new ones are used from now on (a changed one only after a restart, reload.ts). */
  reconfigure?(config: Pick<Config, 'transports'>): void;
  close(): Promise<void>;
}

export class CompanyFileStores implements FileStoreProvider {
  private readonly open = new Map<string, FileStore>();

  constructor(
    private config: Pick<Config, 'transports'>,
    private readonly logger: Logger,
  ) {}

  reconfigure(config: Pick<Config, 'transports'>): void {
    this.config = config;
  }

  async fileStore(company: CompanyConfig): Promise<FileStore> {
    const key = `${company.transport}:${company.root}`;
    const known = this.open.get(key);
    if (known) return known;
    const store = company.transport === 'local' ? new LocalFileStore(company.root) : this.sftp(company);
    this.open.set(key, store);
    return Promise.resolve(store);
  }

  private sftp(company: CompanyConfig): FileStore {
    const t = this.config.transports[company.transport];
    if (!t) throw new Error(`transport "${company.transport}" is not configured`); // prevented by config cross-checks
    return new SftpFileStore({
      host: t.host,
      port: t.port,
      username: t.username,
      ...(t.password ? { password: t.password.reveal() } : {}),
      ...(t.privateKey ? { privateKey: t.privateKey.reveal() } : {}),
      ...(t.passphrase ? { passphrase: t.passphrase.reveal() } : {}),
      ...(t.hostKeySha256 ? { hostKeySha256: t.hostKeySha256 } : {}),
      allowUnpinned: t.allowUnpinnedHostKey,
      root: company.root,
      timeoutMs: t.timeout,
      logger: this.logger,
    });
  }

  async close(): Promise<void> {
    const stores = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(stores.map((s) => s.close()));
  }
}
