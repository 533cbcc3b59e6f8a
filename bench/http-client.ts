import { Agent, request } from 'node:http';

/**
 * The load generator's HTTP client for the flash sales and the stampede: node's own `http` on
 * kept-alive sockets. With `fetch` the buyers' process took about five times the CPU per checkout
 * (3.2 ms against 0.65 ms for a cart write and its checkout), which on the benchmark's two cores it
 * took from the service and the database it measures.
 */
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

export interface SentRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request; fails when the socket stays silent for `timeoutMs`. */
export function send(url: string, sent: SentRequest, timeoutMs = 120_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(sent.headers ?? {}) };
    if (sent.body !== undefined) headers['content-length'] = Buffer.byteLength(sent.body);
    const outgoing = request(url, { method: sent.method, headers, agent }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}
