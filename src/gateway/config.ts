/**
 * Gateway configuration from CLI flags, then environment, then defaults. The defaults give a
 * working embedded set-up: SQLite in ./data/gateway.db, a localnet RPC on 127.0.0.1:8899, port 4000.
 */
export type Commitment = 'confirmed' | 'finalized';

export interface CurrencyConfig {
  symbol: string;
  mint: string;
}

export interface RateLimitConfig {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Bucket size (largest burst). */
  burst: number;
}

export interface GatewayConfig {
  port: number;
  host: string;
  /** SQLite file. Ignored when databaseUrl is set. */
  databasePath: string;
  /** postgres://... : PostgreSQL, for several instances on one database. */
  databaseUrl: string | null;
  /** PostgreSQL connections per instance. */
  databasePoolSize: number;
  rpcUrl: string;
  /** Deadline of one RPC call. */
  rpcTimeoutMs: number;
  commitment: Commitment;
  /** Tokens accepted besides SOL, e.g. USDC=<mint>. */
  currencies: CurrencyConfig[];
  defaultExpiresInSeconds: number;
  /** How long expired and cancelled payments are still watched for a late transfer. */
  lateWatchMs: number;
  watcher: {
    /** How often the watcher looks for due payments. */
    tickMs: number;
    /** Smallest gap between two chain checks of one payment, whoever asks (watcher, browser, merchant). */
    minCheckIntervalMs: number;
    /** Payments checked at most per tick. */
    batchSize: number;
    /** Parallel chain checks. */
    concurrency: number;
    /** Gap between checks of expired and cancelled payments during the late watch. */
    lateIntervalMs: number;
    /**
     * How long a started chain check is leased to its instance. Longer than a check lasts (RPC
     * deadlines included); a killed instance's payments are checked by another one after it.
     */
    checkLeaseMs: number;
  };
  /**
   * The fast path (src/gateway/detection): list each receiving address every tickMs and check at once
   * a payment whose reference shows up. Immediate checks of one payment are limited by a token bucket
   * (hintBurst, hintRatePerSecond) so spam to the reference cannot multiply its RPC cost.
   */
  detection: {
    enabled: boolean;
    tickMs: number;
    pageSize: number;
    staleMs: number;
    hintBurst: number;
    hintRatePerSecond: number;
  };
  webhooks: {
    /** Delay before retry n (n = 1..). The length is the number of retries. */
    retryScheduleMs: number[];
    /** Fraction of each delay added or removed at random. */
    jitter: number;
    timeoutMs: number;
    /** How long a claimed delivery stays leased to one worker before another may take it. */
    leaseMs: number;
    pollMs: number;
  };
  rateLimits: {
    perPayment: RateLimitConfig;
    perClient: RateLimitConfig;
  };
  /**
   * GET /metrics (Prometheus). On the API port only when `token` is set (callers send it as a Bearer);
   * on its own listener when `port` is set (then the token, if set, is required there too).
   */
  metrics: { token: string | null; port: number | null; host: string };
  /**
   * Longest time public verify may answer from memory for a change this instance did not make itself
   * (another instance's transition, a merchant edit); its own changes show at once.
   */
  publicViewTtlMs: number;
  /**
   * How long an Idempotency-Key stays locked by a request that has not finished. After that a retry
   * takes the key over: the instance running the first request is presumed dead (killed mid-request).
   */
  idempotencyLockMs: number;
  /** Express `trust proxy` setting, for the client address behind a reverse proxy. */
  trustProxy: boolean | number | string;
  /** Log lines (never keys). Defaults to stderr; pass () => {} to silence. */
  log: (line: string) => void;
}

export const DEFAULT_RETRY_SCHEDULE_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
];

export function defaultConfig(): GatewayConfig {
  return {
    port: 4000,
    host: '127.0.0.1',
    databasePath: './data/gateway.db',
    databaseUrl: null,
    databasePoolSize: 10,
    rpcUrl: 'http://127.0.0.1:8899',
    rpcTimeoutMs: 10_000,
    commitment: 'confirmed',
    currencies: [],
    defaultExpiresInSeconds: 900,
    lateWatchMs: 24 * 3600_000,
    // With the recipient watch on, the per-reference scan is the fallback: every 5 s at most (12 lists a minute).
    watcher: { tickMs: 50, minCheckIntervalMs: 5_000, batchSize: 500, concurrency: 32, lateIntervalMs: 30_000, checkLeaseMs: 30_000 },
    detection: { enabled: true, tickMs: 400, pageSize: 100, staleMs: 60_000, hintBurst: 3, hintRatePerSecond: 0.2 },
    webhooks: {
      retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
      jitter: 0.1,
      timeoutMs: 15_000,
      leaseMs: 30_000,
      pollMs: 200,
    },
    rateLimits: {
      perPayment: { ratePerSecond: 10, burst: 30 },
      perClient: { ratePerSecond: 100, burst: 300 },
    },
    metrics: { token: null, port: null, host: '127.0.0.1' },
    publicViewTtlMs: 1_000,
    idempotencyLockMs: 60_000,
    trustProxy: false,
    log: (line) => process.stderr.write(line + '\n'),
  };
}

export class ConfigError extends Error {}

/** Parses `USDC=<mint>,BONK=<mint>` (also accepts repeated flags joined by the caller). */
export function parseCurrencies(value: string): CurrencyConfig[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const symbol = pair.slice(0, eq).trim();
      const mint = pair.slice(eq + 1).trim();
      if (eq <= 0 || !mint || !/^[A-Z0-9]{1,10}$/.test(symbol) || symbol === 'SOL') {
        throw new ConfigError(`bad currency "${pair}": expected SYMBOL=MINT with an upper-case symbol other than SOL`);
      }
      return { symbol, mint };
    });
}

export function parseCommitment(value: string): Commitment {
  if (value !== 'confirmed' && value !== 'finalized') {
    throw new ConfigError(`commitment must be "confirmed" or "finalized", got "${value}"`);
  }
  return value;
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`bad port "${value}"`);
  return n;
}

export interface StartFlags {
  port?: string;
  database?: string;
  rpc?: string;
  commitment?: string;
  currency?: string[];
  host?: string;
  metricsPort?: string;
}

/** Flags win over the environment, which wins over defaults. */
export function configFromFlagsAndEnv(flags: StartFlags, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = defaultConfig();
  const port = flags.port ?? env.PORT;
  if (port !== undefined) config.port = parsePort(port);
  const host = flags.host ?? env.HOST;
  if (host) config.host = host;
  const databaseUrl = env.DATABASE_URL;
  if (flags.database && /^postgres(ql)?:\/\//.test(flags.database)) config.databaseUrl = flags.database;
  else if (flags.database) config.databasePath = flags.database;
  else if (databaseUrl) {
    if (/^postgres(ql)?:\/\//.test(databaseUrl)) config.databaseUrl = databaseUrl;
    else config.databasePath = databaseUrl.replace(/^(sqlite|file):(\/\/)?/, '');
  }
  const rpc = flags.rpc ?? env.SOLANA_RPC_URL;
  if (rpc) config.rpcUrl = rpc;
  const commitment = flags.commitment ?? env.COMMITMENT;
  if (commitment) config.commitment = parseCommitment(commitment);
  const currencies = flags.currency?.length ? flags.currency.join(',') : env.CURRENCIES;
  if (currencies) config.currencies = parseCurrencies(currencies);
  const metricsToken = env.METRICS_TOKEN;
  if (metricsToken !== undefined && metricsToken !== '') {
    if (!/^[\x21-\x7e]{16,256}$/.test(metricsToken)) throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable ASCII characters');
    config.metrics.token = metricsToken;
  }
  const metricsPort = flags.metricsPort ?? env.METRICS_PORT;
  if (metricsPort !== undefined && metricsPort !== '') config.metrics.port = parsePort(metricsPort);
  if (env.METRICS_HOST) config.metrics.host = env.METRICS_HOST;
  const trust = env.TRUST_PROXY;
  if (trust) config.trustProxy = trust === 'true' ? true : trust === 'false' ? false : /^\d+$/.test(trust) ? Number(trust) : trust;
  applyTuningEnv(config, env);
  return config;
}

function envMs(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number of milliseconds, got "${v}"`);
  return n;
}

/**
 * Tuning knobs, environment only (tests and benchmarks compress time with them):
 * RPC_TIMEOUT_MS, WEBHOOK_RETRY_SCHEDULE_MS (comma-separated), WEBHOOK_TIMEOUT_MS, WEBHOOK_LEASE_MS,
 * WATCHER_TICK_MS, WATCHER_MIN_CHECK_INTERVAL_MS, LATE_WATCH_INTERVAL_MS, CHECK_LEASE_MS, DATABASE_POOL_SIZE, DETECTION_TICK_MS (0 turns the
 * recipient watch off),
 * RATE_LIMIT_PER_PAYMENT and RATE_LIMIT_PER_CLIENT ("RATE,BURST").
 */
function applyTuningEnv(config: GatewayConfig, env: NodeJS.ProcessEnv): void {
  const schedule = env.WEBHOOK_RETRY_SCHEDULE_MS;
  if (schedule) {
    const list = schedule.split(',').map((x) => Number(x.trim()));
    if (list.some((n) => !Number.isInteger(n) || n < 0)) {
      throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated milliseconds, got "${schedule}"`);
    }
    config.webhooks.retryScheduleMs = list;
  }
  config.rpcTimeoutMs = envMs(env, 'RPC_TIMEOUT_MS') ?? config.rpcTimeoutMs;
  config.webhooks.timeoutMs = envMs(env, 'WEBHOOK_TIMEOUT_MS') ?? config.webhooks.timeoutMs;
  config.idempotencyLockMs = envMs(env, 'IDEMPOTENCY_LOCK_MS') ?? config.idempotencyLockMs;
  config.webhooks.leaseMs = envMs(env, 'WEBHOOK_LEASE_MS') ?? config.webhooks.leaseMs;
  config.watcher.tickMs = envMs(env, 'WATCHER_TICK_MS') ?? config.watcher.tickMs;
  config.watcher.minCheckIntervalMs = envMs(env, 'WATCHER_MIN_CHECK_INTERVAL_MS') ?? config.watcher.minCheckIntervalMs;
  config.watcher.lateIntervalMs = envMs(env, 'LATE_WATCH_INTERVAL_MS') ?? config.watcher.lateIntervalMs;
  config.watcher.checkLeaseMs = envMs(env, 'CHECK_LEASE_MS') ?? config.watcher.checkLeaseMs;
  const pool = env.DATABASE_POOL_SIZE;
  if (pool !== undefined && pool !== '') {
    const n = Number(pool);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw new ConfigError(`DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got "${pool}"`);
    config.databasePoolSize = n;
  }
  const detectionTick = envMs(env, 'DETECTION_TICK_MS');
  if (detectionTick === 0) config.detection.enabled = false;
  else if (detectionTick !== undefined) config.detection.tickMs = detectionTick;
  config.rateLimits.perPayment = envRate(env, 'RATE_LIMIT_PER_PAYMENT') ?? config.rateLimits.perPayment;
  config.rateLimits.perClient = envRate(env, 'RATE_LIMIT_PER_CLIENT') ?? config.rateLimits.perClient;
}

/** "RATE,BURST": requests per second and bucket size. */
function envRate(env: NodeJS.ProcessEnv, name: string): RateLimitConfig | undefined {
  const v = env[name];
  if (!v) return undefined;
  const [rate, burst] = v.split(',').map((x) => Number(x.trim()));
  if (!rate || !burst || rate <= 0 || burst < 1) throw new ConfigError(`${name} must be "RATE,BURST" (requests per second, bucket size), got "${v}"`);
  return { ratePerSecond: rate, burst };
}

/** Merges a partial config (programmatic use) over the defaults, nested sections included. */
export function resolveConfig(partial: Partial<GatewayConfig>): GatewayConfig {
  const base = defaultConfig();
  return {
    ...base,
    ...partial,
    watcher: { ...base.watcher, ...partial.watcher },
    detection: { ...base.detection, ...partial.detection },
    webhooks: { ...base.webhooks, ...partial.webhooks },
    rateLimits: { ...base.rateLimits, ...partial.rateLimits },
    metrics: { ...base.metrics, ...partial.metrics },
  };
}
