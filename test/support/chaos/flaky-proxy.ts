// A TCP proxy in front of the SFTP server that drops connections mid-transfer, as a flaky
// network or a firewall's idle reaper does: for each accepted connection a seeded PRNG decides
// whether it will be cut, and after how many bytes (both directions counted), so a cut lands in
// the SSH handshake, between operations or inside a file transfer. A cut destroys both sockets
// at once (no FIN handshake to finish a reply), which is what settle sees as a dropped session.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { seededRandom } from '../../../src/domain/random.js';

export interface FlakyProxyOptions {
  /** Where connections go (the real sshd). */
  target: { host: string; port: number };
  seed: number;
  /** Probability that a new connection is cut at some point (0 = a plain proxy). */
  dropRate: number;
  /** The cut comes after a number of bytes drawn uniformly from this range (default 512 B…24 KiB). */
  minBytes?: number;
  maxBytes?: number;
}

export interface FlakyProxyFigures {
  connections: number;
  /** Connections cut by the proxy. */
  drops: number;
  /** Of those, cut after the SSH handshake could have finished (more than 4 KiB through). */
  dropsAfterHandshake: number;
  bytes: number;
}

export interface FlakyProxy {
  readonly host: string;
  readonly port: number;
  readonly figures: FlakyProxyFigures;
  /** Changes the cut probability for connections accepted from now on (0 for a clean recovery). */
  setDropRate(rate: number): void;
  close(): Promise<void>;
}

const HANDSHAKE_BYTES = 4096;

export async function startFlakyProxy(options: FlakyProxyOptions): Promise<FlakyProxy> {
  const random = seededRandom(options.seed);
  const minBytes = options.minBytes ?? 512;
  const maxBytes = options.maxBytes ?? 24 * 1024;
  let dropRate = options.dropRate;
  const figures: FlakyProxyFigures = { connections: 0, drops: 0, dropsAfterHandshake: 0, bytes: 0 };
  const open = new Set<Socket>();

  const server: Server = createServer((client) => {
    figures.connections++;
    const cutAt = random() < dropRate ? minBytes + Math.floor(random() * (maxBytes - minBytes)) : Infinity;
    const upstream = createConnection(options.target);
    open.add(client);
    open.add(upstream);
    let through = 0;
    let cut = false;
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    const relay = (from: Socket, to: Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (cut) return;
        const room = cutAt - through;
        if (chunk.length >= room) {
          // Forward what fits, then cut: the peer sees a partial packet and a reset.
          if (room > 0) to.write(chunk.subarray(0, room));
          through += Math.max(0, room);
          figures.bytes += Math.max(0, room);
          cut = true;
          figures.drops++;
          if (through > HANDSHAKE_BYTES) figures.dropsAfterHandshake++;
          closeBoth();
          return;
        }
        through += chunk.length;
        figures.bytes += chunk.length;
        if (!to.write(chunk)) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
      from.on('end', () => to.end());
      from.on('error', closeBoth);
      from.on('close', closeBoth);
    };
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: '127.0.0.1',
    port,
    figures,
    setDropRate(rate) {
      dropRate = rate;
    },
    async close() {
      for (const socket of open) socket.destroy();
      open.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
