// A local HTTP server that records the requests it gets and answers with a chosen status.
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpSink {
  url: string;
  requests: ReceivedRequest[];
  status: number;
  close(): Promise<void>;
}

export async function startHttpSink(): Promise<HttpSink> {
  const sink: HttpSink = { url: '', requests: [], status: 204, close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      sink.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.statusCode = sink.status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  sink.url = `http://127.0.0.1:${port}`;
  sink.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sink;
}
