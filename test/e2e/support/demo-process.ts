// Runs `node scripts/start.mjs` (what `npm start` runs) as a child process tree on free ports with its
// own data directory, the way a newcomer starts the demo, and stops it the way they do: Ctrl-C (SIGINT).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../..', import.meta.url).pathname;

export interface DemoProcess {
  shopUrl: string;
  gatewayUrl: string;
  rpcUrl: string;
  ports: number[];
  dataDir: string;
  /** The merchant's secrets as start.mjs stored them: the test checks none of them reaches the browser. */
  secrets: string[];
  output(): string;
  /** Sends SIGINT to start.mjs only and resolves when it exits (or rejects after `timeoutMs`). */
  interrupt(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Last resort for cleanup: kills the whole process group. */
  destroy(): void;
}

/** A port the OS just handed out and released (start.mjs needs numbers up front: the webhook URL holds one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A fresh data directory, as on a newcomer's first `npm start`. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-e2e-'));
}

export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

/** Starts `npm start`; pass the `dataDir` and `ports` of an earlier run to restart it on the same data. */
export async function startDemo({ dataDir, ports, readyTimeoutMs = 90_000 }: { dataDir: string; ports?: number[]; readyTimeoutMs?: number }): Promise<DemoProcess> {
  const [rpc, gateway, shop] = ports ?? [await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    // Its own process group, so cleanup can reach the grandchildren if start.mjs ever fails to.
    detached: true,
    env: { ...process.env, LOCALNET_PORT: String(rpc), GATEWAY_PORT: String(gateway), PORT: String(shop), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const destroy = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start was not running after ${readyTimeoutMs} ms:\n${output}`)), readyTimeoutMs);
      const check = () => {
        if (output.includes('svc-checkout is running')) {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${signal ?? code}) before it was running:\n${output}`));
      });
    });
  } catch (err) {
    destroy();
    throw err;
  }

  const rpcUrl = /localnet\s+(http:\/\/\S+)/.exec(output)?.[1] ?? `http://127.0.0.1:${rpc}`;
  const merchant = JSON.parse(readFileSync(join(dataDir, 'demo', 'merchant.json'), 'utf8')) as { secretKey: string; webhookSecret: string };
  return {
    shopUrl: `http://127.0.0.1:${shop}`,
    gatewayUrl: `http://127.0.0.1:${gateway}`,
    rpcUrl,
    ports: [rpc!, gateway!, shop!],
    dataDir,
    secrets: [merchant.secretKey, merchant.webhookSecret],
    output: () => output,
    interrupt(timeoutMs = 15_000) {
      child.kill('SIGINT');
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not exit within ${timeoutMs} ms of SIGINT`)), timeoutMs);
        void exited.then((result) => {
          clearTimeout(timer);
          resolve(result);
        });
      });
    },
    destroy,
  };
}
