/** Query-string validation for list endpoints. */
import type { Request } from 'express';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../core/payment.js';
import { isId } from '../ids.js';
import { ApiError } from './problem.js';

function single(req: Request, name: string): string | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new ApiError(400, 'parameter_invalid', `${name} must be given once, as a plain value.`, name);
  return v;
}

export function pageQuery(req: Request, idPrefix: 'pay' | 'evt'): { limit: number; startingAfter?: string } {
  const rawLimit = single(req, 'limit');
  let limit = 20;
  if (rawLimit !== undefined) {
    if (!/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100) {
      throw new ApiError(400, 'parameter_invalid', 'limit must be a whole number from 1 to 100.', 'limit');
    }
    limit = Number(rawLimit);
  }
  const startingAfter = single(req, 'startingAfter');
  if (startingAfter !== undefined && !isId(idPrefix, startingAfter)) {
    throw new ApiError(400, 'parameter_invalid', `startingAfter must be an id (${idPrefix}_...) from a previous page.`, 'startingAfter');
  }
  return startingAfter === undefined ? { limit } : { limit, startingAfter };
}

export function paymentFilters(req: Request): { status?: PaymentStatus; orderId?: string } {
  const out: { status?: PaymentStatus; orderId?: string } = {};
  const status = single(req, 'status');
  if (status !== undefined) {
    if (!(PAYMENT_STATUSES as readonly string[]).includes(status)) {
      throw new ApiError(400, 'parameter_invalid', `status must be one of ${PAYMENT_STATUSES.join(', ')}.`, 'status');
    }
    out.status = status as PaymentStatus;
  }
  const orderId = single(req, 'orderId');
  if (orderId !== undefined) {
    if (orderId.length === 0 || orderId.length > 200) throw new ApiError(400, 'parameter_invalid', 'orderId must be 1 to 200 characters.', 'orderId');
    // Create refuses control characters in orderId, so none can match; PostgreSQL would refuse a NUL outright.
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f-\u009f]/.test(orderId)) throw new ApiError(400, 'parameter_invalid', 'orderId must not contain control characters.', 'orderId');
    out.orderId = orderId;
  }
  return out;
}
