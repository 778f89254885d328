import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A host name only the proxy knows: it reaches 127.0.0.1, so a request that names it got there
 * through the proxy (a direct one fails to resolve). */
export const PROXY_ONLY_HOST = 'kodo-upstream.test';

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`: what HTTPS_PROXY / HTTP_PROXY point at. */
  readonly url: string;
  /** What went through, in order: `GET http://host:port/path` or `CONNECT host:port`. */
  readonly seen: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy as companies run them: the absolute-URI form for http:// targets and CONNECT
 * tunnels for https:// ones. Host names ending in `.test` resolve to 127.0.0.1 here only.
 */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const hostOf = (name: string) => (name.endsWith('.test') ? '127.0.0.1' : name);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URI expected');
      return;
    }
    const upstream = httpRequest(
      {
        host: hostOf(target.hostname),
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), hostOf(host ?? ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
