/** The on-chain half of the gateway: checking transfers, finding them by reference, building transaction requests. */
export type { Commitment, ExpectedTransfer, TransferVerdict, TransferReason, TransferCheck, TransferCandidate } from './types.js';
export { TRANSFER_REASONS } from './types.js';
export { checkTransfer } from './check-transfer.js';
export type { TransactionAnswer } from './transaction-view.js';
export { ReferenceScanner, type ReferenceScannerOptions } from './reference-scanner.js';
export { getMintInfo, recipientTokenAccount } from './mint.js';
export { buildTransactionRequest, type TransactionRequestInput, type TransactionRequestResponse } from './transaction-request.js';
export { TransferError, type TransferErrorCode } from '../../solana/transfer.js';
