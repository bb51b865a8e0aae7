/**
 * The Solana PubSub websocket API for the subscriptions clients use to wait for
 * transactions: signatureSubscribe (web3.js confirmTransaction, sendAndConfirmTransaction),
 * slotSubscribe, rootSubscribe, accountSubscribe and logsSubscribe, with their *Unsubscribe.
 * Served on the RPC port (ws://host:port) and, like a validator, on port + 1 when free,
 * which is where web3.js looks by default.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { PublicKey } from '@solana/web3.js';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Commitment, LocalChain, TxRecord } from './chain.js';
import { encodeAccount, parseAccountEncoding, type AccountEncoding } from './encode-account.js';
import { decodeMint } from './token-state.js';
import { commitmentParam, configParam, pubkeyParam, signatureParam, asParams } from './params.js';
import { RPC_CODES, RpcError } from './rpc-error.js';
import { stringifyRpc } from './rpc-json.js';

type Subscription =
  | { kind: 'signature'; socket: WebSocket; signature: string; commitment: Commitment }
  | { kind: 'slot'; socket: WebSocket }
  | { kind: 'root'; socket: WebSocket }
  | { kind: 'account'; socket: WebSocket; address: PublicKey; encoding: AccountEncoding; commitment: Commitment; seen: string }
  | { kind: 'logs'; socket: WebSocket; mentions: string | null };

const NOTIFICATION: Record<Subscription['kind'], string> = {
  signature: 'signatureNotification',
  slot: 'slotNotification',
  root: 'rootNotification',
  account: 'accountNotification',
  logs: 'logsNotification',
};

export class PubSub {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly subscriptions = new Map<number, Subscription>();
  private nextId = 0;
  private extraServer: WebSocketServer | null = null;
  private readonly unhook: Array<() => void> = [];

  constructor(private readonly chain: LocalChain) {
    this.wss.on('connection', (socket) => this.accept(socket));
    this.unhook.push(chain.onTransaction((record) => this.onTransaction(record)));
    this.unhook.push(chain.onSlot((slot) => this.onSlot(slot)));
  }

  /** Takes websocket upgrades on the RPC server's own port. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
    });
  }

  /** Also listens on port + 1 (web3.js's default websocket endpoint); returns false if that port is taken. */
  async listenAlso(host: string, port: number): Promise<boolean> {
    if (port > 65535) return false;
    const server = new WebSocketServer({ host, port });
    const ok = await new Promise<boolean>((resolve) => {
      server.once('listening', () => resolve(true));
      server.once('error', () => resolve(false));
    });
    if (!ok) {
      server.close();
      return false;
    }
    server.on('connection', (socket) => this.accept(socket));
    this.extraServer = server;
    return true;
  }

  /**
   * Closes every client with code 1000 (normal closure), which web3.js's websocket client
   * takes as final; any other code makes it reconnect forever to a localnet that is gone.
   */
  async close(): Promise<void> {
    for (const fn of this.unhook) fn();
    this.subscriptions.clear();
    const clients = [...this.wss.clients, ...(this.extraServer?.clients ?? [])];
    await Promise.all(
      clients.map(
        (client) =>
          new Promise<void>((resolve) => {
            if (client.readyState === client.CLOSED) return resolve();
            const timer = setTimeout(() => {
              client.terminate();
              resolve();
            }, 250);
            client.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            client.close(1000, 'localnet stopped');
          }),
      ),
    );
    this.wss.close();
    const extra = this.extraServer;
    if (extra) await new Promise<void>((resolve) => extra.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    socket.on('message', (data) => this.onMessage(socket, String(data)));
    socket.on('close', () => {
      for (const [id, sub] of this.subscriptions) if (sub.socket === socket) this.subscriptions.delete(id);
    });
    socket.on('error', () => socket.terminate());
  }

  private onMessage(socket: WebSocket, text: string): void {
    let request: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(text);
    } catch {
      return this.send(socket, { jsonrpc: '2.0', error: { code: RPC_CODES.parseError, message: 'Parse error' }, id: null });
    }
    const id = typeof request.id === 'number' || typeof request.id === 'string' ? request.id : null;
    // Notifications (no id), such as web3.js's keep-alive "ping", get no answer.
    if (id === null) return;
    try {
      if (typeof request.method !== 'string') throw new RpcError(RPC_CODES.invalidRequest, 'Invalid request');
      const { result, after } = this.handle(socket, request.method, asParams(request.params));
      this.send(socket, { jsonrpc: '2.0', result, id });
      after?.();
    } catch (error) {
      const rpcError = error instanceof RpcError ? error : new RpcError(RPC_CODES.internalError, 'Internal error');
      this.send(socket, { jsonrpc: '2.0', error: rpcError.toJSON(), id });
    }
  }

  private handle(socket: WebSocket, method: string, params: unknown[]): { result: unknown; after?: () => void } {
    if (method.endsWith('Unsubscribe')) {
      const id = params[0];
      if (typeof id !== 'number') throw RpcError.invalidParams('Invalid params: expected a subscription id');
      const sub = this.subscriptions.get(id);
      const kind = method.slice(0, -'Unsubscribe'.length);
      if (!sub || sub.socket !== socket || sub.kind !== kind) throw RpcError.invalidParams('Invalid subscription id.');
      this.subscriptions.delete(id);
      return { result: true };
    }
    switch (method) {
      case 'signatureSubscribe': {
        const signature = signatureParam(params[0]);
        const commitment = commitmentParam(configParam(params[1]));
        const id = this.add({ kind: 'signature', socket, signature, commitment });
        // A signature that already reached the commitment is notified right away.
        return { result: id, after: () => this.checkSignature(id) };
      }
      case 'slotSubscribe':
        return { result: this.add({ kind: 'slot', socket }) };
      case 'rootSubscribe':
        return { result: this.add({ kind: 'root', socket }) };
      case 'accountSubscribe': {
        const address = pubkeyParam(params[0]);
        const config = configParam(params[1]);
        const encoding = parseAccountEncoding(config.encoding, 'base58');
        const commitment = commitmentParam(config);
        const seen = this.fingerprint(address, commitment);
        return { result: this.add({ kind: 'account', socket, address, encoding, commitment, seen }) };
      }
      case 'logsSubscribe': {
        const filter = params[0];
        let mentions: string | null = null;
        if (filter && typeof filter === 'object' && Array.isArray((filter as { mentions?: unknown }).mentions)) {
          const list = (filter as { mentions: unknown[] }).mentions;
          if (list.length !== 1) throw RpcError.invalidParams('Invalid Request: Only 1 address supported');
          mentions = pubkeyParam(list[0]).toBase58();
        } else if (filter !== 'all' && filter !== 'allWithVotes') {
          throw RpcError.invalidParams('Invalid params: expected "all", "allWithVotes" or {"mentions": [address]}');
        }
        return { result: this.add({ kind: 'logs', socket, mentions }) };
      }
      default:
        throw new RpcError(RPC_CODES.methodNotFound, 'Method not found');
    }
  }

  private add(sub: Subscription): number {
    const id = this.nextId++;
    this.subscriptions.set(id, sub);
    return id;
  }

  private notify(id: number, sub: Subscription, result: unknown): void {
    this.send(sub.socket, { jsonrpc: '2.0', method: NOTIFICATION[sub.kind], params: { result, subscription: id } });
  }

  private send(socket: WebSocket, message: unknown): void {
    if (socket.readyState === socket.OPEN) socket.send(stringifyRpc(message));
  }

  private checkSignature(id: number): void {
    const sub = this.subscriptions.get(id);
    if (sub?.kind !== 'signature') return;
    const record = this.chain.getRecord(sub.signature);
    if (!record || (sub.commitment === 'finalized' && !this.chain.isFinalized(record.slot))) return;
    this.subscriptions.delete(id);
    this.notify(id, sub, { context: { slot: this.chain.slot(sub.commitment) }, value: { err: record.err } });
  }

  private onTransaction(record: TxRecord): void {
    const keys = new Set(record.accountKeys.map((k) => k.toBase58()));
    for (const [id, sub] of this.subscriptions) {
      if (sub.kind === 'signature' && sub.signature === record.signature) this.checkSignature(id);
      else if (sub.kind === 'logs' && (sub.mentions === null || keys.has(sub.mentions))) {
        this.notify(id, sub, { context: { slot: record.slot }, value: { err: record.err, logs: record.logMessages, signature: record.signature } });
      } else if (sub.kind === 'account' && sub.commitment !== 'finalized' && keys.has(sub.address.toBase58())) {
        this.notifyAccount(id, sub, record.slot);
      }
    }
  }

  /** A finalized account subscription hears of a change once the slot that made it is finalized. */
  private notifyAccount(id: number, sub: Extract<Subscription, { kind: 'account' }>, slot: number): void {
    const fingerprint = this.fingerprint(sub.address, sub.commitment);
    if (fingerprint === sub.seen) return;
    sub.seen = fingerprint;
    const info = this.chain.getAccountAt(sub.address, sub.commitment);
    const value = info
      ? encodeAccount(sub.address, info, sub.encoding, { decimalsOf: (mint) => decimalsOf(this.chain, mint) })
      : { data: ['', 'base64'], executable: false, lamports: 0, owner: '11111111111111111111111111111111', rentEpoch: 0, space: 0 };
    this.notify(id, sub, { context: { slot }, value });
  }

  private fingerprint(address: PublicKey, commitment: Commitment): string {
    const info = this.chain.getAccountAt(address, commitment);
    return info ? `${info.lamports}:${info.owner.toBase58()}:${Buffer.from(info.data).toString('base64')}` : 'none';
  }

  private onSlot(slot: number): void {
    const root = this.chain.slot('finalized');
    for (const [id, sub] of this.subscriptions) {
      if (sub.kind === 'slot') this.notify(id, sub, { parent: Math.max(0, slot - 1), root, slot });
      else if (sub.kind === 'root') this.notify(id, sub, root);
      else if (sub.kind === 'signature' && sub.commitment === 'finalized') this.checkSignature(id);
      else if (sub.kind === 'account' && sub.commitment === 'finalized') this.notifyAccount(id, sub, root);
    }
  }
}

function decimalsOf(chain: LocalChain, mint: PublicKey): number {
  const account = chain.getAccount(mint);
  return (account && decodeMint(account.owner, account.data)?.decimals) ?? 0;
}
