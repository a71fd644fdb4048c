// The bank's webhook subscription points here for the whole campaign, not at a child that may
// be SIGKILLed any moment: the relay passes each delivery on to whichever receiver is live (the
// current child, or the in-process recovery run) and answers 503 when there is none, so the
// sandbox retries and dead-letters as it would with a settle instance that is down. It also
// counts what the sandbox's webhook faults did: events delivered again after a successful
// delivery (duplicates) and events arriving after one the bank raised later (reordered; the
// bank's order comes from `orderOf`, else from the events' times).
import { createServer, type IncomingHttpHeaders } from 'node:http';

export type WebhookTarget = (headers: IncomingHttpHeaders, body: Buffer) => Promise<number>;

export interface WebhookRelay {
  readonly url: string;
  readonly figures: { deliveries: number; events: number; duplicates: number; reordered: number; refused: number };
  /** Where deliveries go from now on; undefined = nobody listening (503). */
  setTarget(target: WebhookTarget | undefined): void;
  close(): Promise<void>;
}

/** A target that forwards to an HTTP receiver (a child's webhook server). */
export function httpTarget(url: string): WebhookTarget {
  return async (headers, body) => {
    const forward: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (typeof v === 'string' && (k === 'content-type' || k.startsWith('ce-') || k === 'authorization'))
        forward[k] = v;
    }
    const res = await fetch(url, { method: 'POST', headers: forward, body, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return res.status;
  };
}

interface EventFacts {
  id: string;
  time: string;
}

function eventsOf(headers: IncomingHttpHeaders, body: Buffer): EventFacts[] {
  if (typeof headers['ce-id'] === 'string') return [{ id: headers['ce-id'], time: String(headers['ce-time'] ?? '') }];
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.flatMap((e) => {
      const o = e as { id?: unknown; time?: unknown };
      return typeof o.id === 'string' ? [{ id: o.id, time: typeof o.time === 'string' ? o.time : '' }] : [];
    });
  } catch {
    return [];
  }
}

export interface WebhookRelayOptions {
  /** The position of an event in the order the bank raised them (the sandbox's event log). */
  orderOf?: (eventId: string) => number;
}

export async function startWebhookRelay(options: WebhookRelayOptions = {}): Promise<WebhookRelay> {
  let target: WebhookTarget | undefined;
  const figures = { deliveries: 0, events: 0, duplicates: 0, reordered: 0, refused: 0 };
  const delivered = new Set<string>();
  let latest = '';
  let latestOrder = -1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const now = target;
      const answer = async (): Promise<number> => (now === undefined ? 503 : now(req.headers, body));
      answer().then(
        (status) => {
          figures.deliveries++;
          if (status >= 200 && status < 300) {
            for (const e of eventsOf(req.headers, body)) {
              figures.events++;
              if (delivered.has(e.id)) {
                figures.duplicates++;
                continue;
              }
              delivered.add(e.id);
              if (options.orderOf !== undefined) {
                const order = options.orderOf(e.id);
                if (order >= 0 && order < latestOrder) figures.reordered++;
                latestOrder = Math.max(latestOrder, order);
              } else {
                if (e.time !== '' && e.time < latest) figures.reordered++;
                if (e.time > latest) latest = e.time;
              }
            }
          } else figures.refused++;
          res.writeHead(status).end();
        },
        () => {
          figures.refused++;
          res.writeHead(502).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks/banking`,
    figures,
    setTarget(t) {
      target = t;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
