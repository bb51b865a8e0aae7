import type { GatewayConfig } from '../../config.js';
import type { PaymentService } from '../../payments/service.js';
import type { Store } from '../../store/store.js';
import type { ChainPort } from '../../payments/chain-port.js';
import type { PublicViewCache } from '../public-view-cache.js';
import type { RateLimiter } from '../rate-limit.js';
import type { GatewayMetrics } from '../../metrics/metrics.js';

/** What every router gets. */
export interface AppContext {
  config: GatewayConfig;
  store: Store;
  service: PaymentService;
  chain: ChainPort;
  metrics: GatewayMetrics;
  limits: { perPayment: RateLimiter; perClient: RateLimiter };
  /** What public verify serves from memory (invalidated by the service on every state change). */
  views: PublicViewCache;
  /** Wakes the webhook worker (after a redelivery is queued). */
  kickWebhooks: () => void;
}
