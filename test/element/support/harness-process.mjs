// Child process that owns the test stack (see harness.mjs). It serves harness.handle plus
// POST /__command {command, payload} on 127.0.0.1:0, tells its parent the URL over IPC, and shuts the
// stack down when the parent says so or goes away.
import { createServer } from 'node:http';
import * as harness from './harness.mjs';

async function readJson(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

const server = createServer(async (req, res) => {
  try {
    if (req.url === '/__command' && req.method === 'POST') {
      const { command, payload } = await readJson(req);
      try {
        const result = await harness.runCommand(command, payload);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
      } catch (err) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(err?.message ?? err) }));
      }
      return;
    }
    await harness.handle(req, res);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(err?.stack ?? err));
  }
});

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections();
  server.close();
  await harness.stop().catch((err) => console.error(err));
  process.exit(0);
}
process.on('message', (m) => m === 'stop' && void shutdown());
process.on('disconnect', () => void shutdown());

await harness.start();
server.listen(0, '127.0.0.1', () => {
  process.send({ ready: true, url: `http://127.0.0.1:${server.address().port}`, problem: harness.available() ? null : 'dist missing' });
});
