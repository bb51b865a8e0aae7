/**
 * Fixed development keys of the localnet. They are derived from public seeds on purpose:
 * configuration, docs and other processes can name the USDC mint and mint more of it
 * without any state being shared. Never use these keys on a real cluster.
 */
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';

function keypairFromSeed(seed: string): Keypair {
  return Keypair.fromSeed(createHash('sha256').update(seed, 'utf8').digest());
}

export const DEV_SEEDS = {
  usdcMint: 'svc-checkout localnet usdc mint',
  usdcMintAuthority: 'svc-checkout localnet usdc mint authority',
  faucet: 'svc-checkout localnet faucet',
  identity: 'svc-checkout localnet identity',
} as const;

/** Keypair of the localnet's USDC-like mint (6 decimals, Token program). */
export const usdcMintKeypair = (): Keypair => keypairFromSeed(DEV_SEEDS.usdcMint);
/** Mint (and freeze) authority of the localnet USDC: anyone may mint localnet USDC with it. */
export const usdcMintAuthority = (): Keypair => keypairFromSeed(DEV_SEEDS.usdcMintAuthority);
/** Pays out `requestAirdrop`; holds most of the localnet's SOL. */
export const faucetKeypair = (): Keypair => keypairFromSeed(DEV_SEEDS.faucet);

/** The node identity getIdentity and getClusterNodes report. */
export const identityKeypair = (): Keypair => keypairFromSeed(DEV_SEEDS.identity);

/** Address of the localnet USDC mint; the same on every start. */
export const LOCALNET_USDC_MINT = usdcMintKeypair().publicKey.toBase58();
export const LOCALNET_USDC_DECIMALS = 6;
