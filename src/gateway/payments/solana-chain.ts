/** ChainPort over the verification engine (../chain) and one @solana/web3.js Connection. */
import { Connection } from '@solana/web3.js';
import { ReferenceScanner, buildTransactionRequest, getMintInfo, recipientTokenAccount } from '../chain/index.js';
import type { Commitment } from '../config.js';
import { rpcFetch, type RpcObserver } from '../metrics/rpc-fetch.js';
import type { ChainPort, TransactionRequestInput } from './chain-port.js';

export class SolanaChain implements ChainPort {
  readonly connection: Connection;
  readonly scanner: ReferenceScanner;

  constructor(rpcUrl: string, commitment: Commitment, timeoutMs = 10_000, observe?: RpcObserver) {
    // 'confirmed' for reads in general; the scanner applies the payment's required commitment itself.
    // Every RPC call has a deadline: a hung node must not hold a payment's check (and its coalesced
    // waiters) forever. A timeout is an RPC failure like any other: no state changes, retried later.
    this.connection = new Connection(rpcUrl, {
      commitment: 'confirmed',
      disableRetryOnRateLimit: true,
      fetch: rpcFetch(timeoutMs, observe),
    });
    this.scanner = new ReferenceScanner(this.connection, { commitment });
  }

  /** RPC requests the scanner made (getSignaturesForAddress pages and getTransaction calls). */
  get scanRpcCalls(): number {
    return this.scanner.rpcCalls;
  }

  scan(expected: Parameters<ChainPort['scan']>[0]) {
    return this.scanner.scan(expected);
  }

  async mintDecimals(mint: string): Promise<number> {
    return (await getMintInfo(this.connection, mint)).decimals;
  }

  async recipientTokenAccountExists(owner: string, mint: string): Promise<boolean> {
    return (await recipientTokenAccount(this.connection, owner, mint)).exists;
  }

  buildTransactionRequest(input: TransactionRequestInput, account: string) {
    return buildTransactionRequest(this.connection, input, account);
  }
}
