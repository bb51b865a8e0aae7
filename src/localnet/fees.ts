/** Transaction fees as the runtime charges them. */
import { ComputeBudgetProgram, type VersionedMessage } from '@solana/web3.js';

/** The fee a message pays: 5000 lamports per signature plus the compute-unit price times the limit. */
export function feeForMessage(message: VersionedMessage): bigint {
  const computeBudget = ComputeBudgetProgram.programId.toBase58();
  let limit: bigint | null = null;
  let price = 0n;
  let others = 0n;
  for (const ix of message.compiledInstructions) {
    if (message.staticAccountKeys[ix.programIdIndex]?.toBase58() !== computeBudget) {
      others += 1n;
      continue;
    }
    const data = Buffer.from(ix.data);
    if (data[0] === 2 && data.length >= 5) limit = BigInt(data.readUInt32LE(1));
    if (data[0] === 3 && data.length >= 9) price = data.readBigUInt64LE(1);
  }
  const units = limit ?? (others * 200_000n > 1_400_000n ? 1_400_000n : others * 200_000n);
  const priority = (price * units + 999_999n) / 1_000_000n;
  return 5000n * BigInt(message.header.numRequiredSignatures) + priority;
}
