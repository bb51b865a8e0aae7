/** Database rows to the API's payment shapes (src/core/payment.ts). */
import { formatAmount } from '../../core/amount.js';
import type { Payment, PaymentEvent, PublicPayment, EventType } from '../../core/payment.js';
import type { MerchantRow, PaymentRow } from '../store/store.js';

export function toPayment(row: PaymentRow): Payment {
  return {
    object: 'payment',
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    mint: row.mint,
    recipient: row.recipient,
    reference: row.reference,
    url: row.url,
    label: row.label,
    message: row.message,
    memo: row.memo,
    orderId: row.order_id,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    amountReceived: row.amount_received_base === null ? null : formatAmount(BigInt(row.amount_received_base), row.decimals),
    signature: row.signature,
    payer: row.payer,
    paidLate: row.paid_late === 1,
    overpaid: row.overpaid === 1,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    confirmedAt: row.confirmed_at,
    cancelledAt: row.cancelled_at,
    livemode: row.livemode === 1,
    sequence: row.sequence,
  };
}

export function toPublicPayment(row: PaymentRow, merchant: Pick<MerchantRow, 'name' | 'logo_url'>, now = new Date()): PublicPayment {
  const { metadata: _m, orderId: _o, ...rest } = toPayment(row);
  return { ...rest, merchant: { name: merchant.name, logoUrl: merchant.logo_url }, serverTime: now.toISOString() };
}

export function eventBody(id: string, type: EventType, timestamp: string, row: PaymentRow): string {
  const event: PaymentEvent = {
    object: 'event',
    id,
    type,
    timestamp,
    livemode: row.livemode === 1,
    data: { payment: toPayment(row) },
  };
  return JSON.stringify(event);
}
