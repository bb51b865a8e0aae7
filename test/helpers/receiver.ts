/** A real webhook receiver on 127.0.0.1:0 that records every delivery and answers as told. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Behaviour = 'ok' | 'error' | 'gone' | 'reset' | 'hang';

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Decides the answer to the next request (default 'ok'). */
  behave: (delivery: Delivery, index: number) => Behaviour;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    behave: () => 'ok',
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const delivery = { headers, body, at: Date.now() };
    const index = receiver.deliveries.push(delivery) - 1;
    const b = receiver.behave(delivery, index);
    if (b === 'reset') return req.socket.destroy();
    if (b === 'hang') {
      const end = () => res.destroy();
      hanging.add(end);
      return;
    }
    res.statusCode = b === 'ok' ? 200 : b === 'gone' ? 410 : 503;
    res.end(b === 'ok' ? 'ok' : 'no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const end of hanging) end();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
