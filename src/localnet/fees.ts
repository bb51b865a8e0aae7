/** Transaction fees as the runtime charges them. */
import { ComputeBudgetProgram, type VersionedMessage } from '@solana/web3.js';

const LAMPORTS_PER_SIGNATURE = 5000n;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
/** Default compute units an instruction reserves when no SetComputeUnitLimit is given. */
const DEFAULT_INSTRUCTION_UNITS = 200_000n;
const BUILTIN_INSTRUCTION_UNITS = 3_000n;
/** Native programs (not migrated to BPF), which reserve only 3,000 units each. */
const BUILTINS = new Set([
  '11111111111111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
]);

/**
 * The fee a message pays: 5000 lamports per signature plus the compute-unit price times the
 * compute-unit limit (SetComputeUnitLimit, or 3,000 per builtin and 200,000 per other instruction).
 */
export function feeForMessage(message: VersionedMessage): bigint {
  const computeBudget = ComputeBudgetProgram.programId.toBase58();
  let limit: bigint | null = null;
  let price = 0n;
  let defaultUnits = 0n;
  for (const ix of message.compiledInstructions) {
    const program = message.staticAccountKeys[ix.programIdIndex]?.toBase58() ?? '';
    defaultUnits += BUILTINS.has(program) ? BUILTIN_INSTRUCTION_UNITS : DEFAULT_INSTRUCTION_UNITS;
    if (program !== computeBudget) continue;
    const data = Buffer.from(ix.data);
    if (data[0] === 2 && data.length >= 5) limit = BigInt(data.readUInt32LE(1));
    if (data[0] === 3 && data.length >= 9) price = data.readBigUInt64LE(1);
  }
  const requested = limit ?? defaultUnits;
  const units = requested > MAX_COMPUTE_UNIT_LIMIT ? MAX_COMPUTE_UNIT_LIMIT : requested;
  const priority = (price * units + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + priority;
}
