// An HTTP endpoint for settle's webhook alert channel: keeps every JSON body it receives.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookSink {
  url: string;
  received: Record<string, unknown>[];
  close(): void;
}

export async function startWebhookSink(): Promise<WebhookSink> {
  const received: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`;
  return { url, received, close: () => void server.close() };
}
