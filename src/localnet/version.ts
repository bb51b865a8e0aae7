/** What the localnet reports as its version: the Agave line whose RPC shapes it follows. */
export const API_VERSION = '2.2.0';
export const API_VERSION_INFO = { 'feature-set': 3294202862, 'solana-core': API_VERSION } as const;
