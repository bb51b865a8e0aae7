/**
 * Entry of the browser bundle: defines <svc-checkout>.
 * Placeholder element until the element issue lands; registration is already guarded.
 */
import { SvcCheckout } from './svc-checkout.js';
import { defineOnce } from './define.js';

export { SvcCheckout };
defineOnce('svc-checkout', SvcCheckout);
