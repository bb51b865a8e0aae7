/** Code shared by the element, the server SDK and the gateway. No Node or DOM APIs here. */
export * from './payment.js';
export * from './errors.js';
export * from './amount.js';
export * from './base58.js';
export * from './solana-pay.js';
