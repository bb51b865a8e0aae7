/** Runs the svc-gateway CLI as a real child process (through tsx, from the sources). */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CLI = ['--import', 'tsx', 'src/gateway/cli.ts'];

export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [...CLI, ...args], { cwd: root, env: { ...process.env, ...env } });
}

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  stderr: () => string;
}

/** Starts `svc-gateway start --port 0 ...` and resolves once it prints its URL. */
export async function spawnGateway(args: string[], env: Record<string, string> = {}): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...CLI, 'start', '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${err}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening: ${err}`));
    });
  });
  return { url, child, exited, stderr: () => err };
}
