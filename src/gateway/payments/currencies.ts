/**
 * Currencies a gateway accepts: SOL always, plus the configured tokens. A token's decimals are read
 * from its mint on chain once and cached (a mint's decimals never change).
 */
import type { CurrencyConfig } from '../config.js';
import type { ChainPort } from './chain-port.js';

export interface Currency {
  symbol: string;
  mint: string | null;
  decimals: number;
}

export const SOL: Currency = { symbol: 'SOL', mint: null, decimals: 9 };

export class CurrencyRegistry {
  private readonly decimals = new Map<string, number>();

  constructor(
    private readonly tokens: CurrencyConfig[],
    private readonly chain: ChainPort,
  ) {}

  symbols(): string[] {
    return ['SOL', ...this.tokens.map((t) => t.symbol)];
  }

  isKnown(symbol: string): boolean {
    return symbol === 'SOL' || this.tokens.some((t) => t.symbol === symbol);
  }

  /** Throws (RPC) when the decimals are not cached and the chain cannot be reached. */
  async resolve(symbol: string): Promise<Currency | undefined> {
    if (symbol === 'SOL') return SOL;
    const token = this.tokens.find((t) => t.symbol === symbol);
    if (!token) return undefined;
    let decimals = this.decimals.get(token.mint);
    if (decimals === undefined) {
      decimals = await this.chain.mintDecimals(token.mint);
      this.decimals.set(token.mint, decimals);
    }
    return { symbol, mint: token.mint, decimals };
  }

  /** Every currency whose decimals can be learned now; tokens whose mint cannot be read are left out. */
  async list(): Promise<Currency[]> {
    const out: Currency[] = [SOL];
    for (const t of this.tokens) {
      try {
        const c = await this.resolve(t.symbol);
        if (c) out.push(c);
      } catch {
        // RPC down or mint missing: leave it out of the listing rather than fail the whole call.
      }
    }
    return out;
  }
}
