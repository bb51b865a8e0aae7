/**
 * The Store over Kysely, for both engines. Queries stay within what SQLite and PostgreSQL share;
 * the few engine switches are the row locks of the claims (`FOR UPDATE SKIP LOCKED` on PostgreSQL,
 * where several instances claim at once; SQLite has one writer, so its conditional update suffices).
 */
import { Migrator, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import { CodeMigrationProvider, type Engine } from './migrations.js';
import { newOutboxId } from '../ids.js';
import type {
  ApiKeyRow,
  ClaimedDelivery,
  EventRow,
  IdempotencyCompletion,
  IdempotencyRow,
  MerchantPatch,
  MerchantRow,
  MetricsSnapshot,
  NewEvent,
  OutboxRow,
  PageQuery,
  PaymentFilter,
  PaymentRow,
  Store,
  TransitionInput,
  TransitionResult,
} from './store.js';

export class KyselyStore implements Store {
  constructor(
    protected readonly db: Kysely<Database>,
    private readonly isUniqueViolation: (error: unknown) => boolean,
    readonly engine: Engine = 'sqlite',
  ) {}

  async migrate(): Promise<void> {
    const migrator = new Migrator({ db: this.db, provider: new CodeMigrationProvider(this.engine) });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) {
      throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
    }
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  // ---- merchants and credentials

  async insertMerchant(merchant: MerchantRow, keys: ApiKeyRow[], webhookSecret: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('merchants').values(merchant).execute();
      if (keys.length) await trx.insertInto('api_keys').values(keys).execute();
      await trx
        .insertInto('webhook_secrets')
        .values({ merchant_id: merchant.id, secret: webhookSecret, expires_at: null, created_at: merchant.created_at })
        .execute();
    });
  }

  getMerchant(id: string): Promise<MerchantRow | undefined> {
    return this.db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listMerchants(): Promise<MerchantRow[]> {
    return this.db.selectFrom('merchants').selectAll().orderBy('id').execute();
  }

  async findApiKey(hash: string): Promise<{ key: ApiKeyRow; merchant: MerchantRow } | undefined> {
    const key = await this.db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
    if (!key) return undefined;
    const merchant = await this.getMerchant(key.merchant_id);
    return merchant ? { key, merchant } : undefined;
  }

  listApiKeys(merchantId: string): Promise<ApiKeyRow[]> {
    return this.db.selectFrom('api_keys').selectAll().where('merchant_id', '=', merchantId).orderBy('created_at').execute();
  }

  async replaceApiKey(key: ApiKeyRow, revokedAt: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: revokedAt })
        .where('merchant_id', '=', key.merchant_id)
        .where('kind', '=', key.kind)
        .where('mode', '=', key.mode)
        .where('revoked_at', 'is', null)
        .execute();
      await trx.insertInto('api_keys').values(key).execute();
    });
  }

  async rotateWebhookSecret(merchantId: string, secret: string, now: string, previousExpiresAt: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_secrets')
        .set({ expires_at: previousExpiresAt })
        .where('merchant_id', '=', merchantId)
        .where('expires_at', 'is', null)
        .execute();
      await trx.insertInto('webhook_secrets').values({ merchant_id: merchantId, secret, expires_at: null, created_at: now }).execute();
    });
  }

  async webhookSecrets(merchantId: string, now: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_secrets')
      .select(['secret', 'expires_at'])
      .where('merchant_id', '=', merchantId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('id', 'desc')
      .execute();
    return rows.sort((a, b) => Number(a.expires_at !== null) - Number(b.expires_at !== null)).map((r) => r.secret);
  }

  async setWebhook(merchantId: string, url: string | null, disabled: boolean): Promise<void> {
    await this.db
      .updateTable('merchants')
      .set({ webhook_url: url, webhook_disabled: disabled ? 1 : 0 })
      .where('id', '=', merchantId)
      .execute();
  }

  async updateMerchant(merchantId: string, patch: MerchantPatch): Promise<boolean> {
    if (Object.keys(patch).length === 0) return (await this.getMerchant(merchantId)) !== undefined;
    const result = await this.db.updateTable('merchants').set(patch).where('id', '=', merchantId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // ---- payments

  async insertPayment(payment: PaymentRow, tokenHash: string, event: NewEvent, idempotency?: IdempotencyCompletion): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('payments').values(payment).execute();
      await trx.insertInto('payment_tokens').values({ hash: tokenHash, payment_id: payment.id, created_at: payment.created_at }).execute();
      await this.writeEvent(trx, payment, event);
      if (idempotency) {
        await trx
          .updateTable('idempotency_keys')
          .set({ status_code: idempotency.statusCode, response_body: idempotency.body })
          .where('merchant_id', '=', idempotency.merchantId)
          .where('livemode', '=', idempotency.livemode ? 1 : 0)
          .where('key', '=', idempotency.key)
          .execute();
      }
    });
  }

  getPayment(id: string): Promise<PaymentRow | undefined> {
    return this.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async getPaymentByToken(tokenHash: string): Promise<PaymentRow | undefined> {
    return this.db
      .selectFrom('payment_tokens')
      .innerJoin('payments', 'payments.id', 'payment_tokens.payment_id')
      .selectAll('payments')
      .where('payment_tokens.hash', '=', tokenHash)
      .executeTakeFirst();
  }

  listPayments(merchantId: string, livemode: boolean, filter: PaymentFilter): Promise<PaymentRow[]> {
    let q = this.db
      .selectFrom('payments')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('livemode', '=', livemode ? 1 : 0);
    if (filter.startingAfter) q = q.where('id', '<', filter.startingAfter);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.orderId !== undefined) q = q.where('order_id', '=', filter.orderId);
    return q.orderBy('id', 'desc').limit(filter.limit).execute();
  }

  async transition(input: TransitionInput): Promise<TransitionResult> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const now = input.event?.createdAt ?? new Date().toISOString();
        if (input.underpayment) {
          const seen = await trx
            .selectFrom('underpayments')
            .select('signature')
            .where('payment_id', '=', input.paymentId)
            .where('signature', '=', input.underpayment.signature)
            .executeTakeFirst();
          if (seen) return 'duplicate';
          await trx
            .insertInto('underpayments')
            .values({
              payment_id: input.paymentId,
              signature: input.underpayment.signature,
              amount_base: input.underpayment.amountBase,
              created_at: now,
            })
            .execute();
        }
        if (input.settleSignature) {
          const taken = await trx
            .selectFrom('settlements')
            .select('payment_id')
            .where('signature', '=', input.settleSignature)
            .executeTakeFirst();
          if (taken) throw new SignatureTaken();
          // The primary key still guards against a concurrent writer on another instance.
          await trx
            .insertInto('settlements')
            .values({ signature: input.settleSignature, payment_id: input.paymentId, created_at: now })
            .execute();
        }
        const updated = await trx
          .updateTable('payments')
          .set({ ...input.patch, sequence: input.expectedSequence + 1 })
          .where('id', '=', input.paymentId)
          .where('sequence', '=', input.expectedSequence)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new StaleWrite();
        if (input.event) {
          const payment = await trx.selectFrom('payments').selectAll().where('id', '=', input.paymentId).executeTakeFirstOrThrow();
          await this.writeEvent(trx, payment, input.event);
        }
        return 'ok' as const;
      });
    } catch (error) {
      if (error instanceof StaleWrite) return 'stale';
      if (error instanceof SignatureTaken) return 'signature_taken';
      if (this.isUniqueViolation(error)) return input.settleSignature ? 'signature_taken' : 'stale';
      throw error;
    }
  }

  private async writeEvent(trx: Transaction<Database>, payment: PaymentRow, event: NewEvent): Promise<void> {
    await trx
      .insertInto('events')
      .values({
        id: event.id,
        merchant_id: payment.merchant_id,
        livemode: payment.livemode,
        type: event.type,
        payment_id: payment.id,
        body: event.body,
        created_at: event.createdAt,
      })
      .execute();
    const merchant = await trx
      .selectFrom('merchants')
      .select(['webhook_url', 'webhook_disabled'])
      .where('id', '=', payment.merchant_id)
      .executeTakeFirst();
    if (merchant?.webhook_url && !merchant.webhook_disabled) {
      await trx.insertInto('webhook_outbox').values(newOutboxRow(event.id, payment.merchant_id, event.createdAt)).execute();
    }
  }

  async scheduleCheck(paymentId: string, nextCheckAt: string | null, checks: number): Promise<void> {
    await this.db
      .updateTable('payments')
      .set({ next_check_at: nextCheckAt, checks, checking_until: null })
      .where('id', '=', paymentId)
      .execute();
  }

  async claimCheck(paymentId: string, now: string, notCheckedSince: string, leaseUntil: string): Promise<boolean> {
    // One conditional UPDATE is the claim, on both engines: whoever changes the row first checks.
    const r = await this.db
      .updateTable('payments')
      .set({ checking_until: leaseUntil, checked_at: now })
      .where('id', '=', paymentId)
      // A payment no longer watched (settled, or past its late watch) needs no check: a poll on it writes nothing.
      .where('next_check_at', 'is not', null)
      .where((eb) => eb.or([eb('checking_until', 'is', null), eb('checking_until', '<=', now)]))
      .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', notCheckedSince)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async claimDueChecks(now: string, notCheckedSince: string, leaseUntil: string, limit: number): Promise<PaymentRow[]> {
    let due = this.db
      .selectFrom('payments')
      .select('id')
      .where('next_check_at', 'is not', null)
      .where('next_check_at', '<=', now)
      .where((eb) => eb.or([eb('checking_until', 'is', null), eb('checking_until', '<=', now)]))
      .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', notCheckedSince)]))
      .orderBy('next_check_at')
      .limit(limit);
    // Instances claiming at once take disjoint rows instead of queueing behind each other's locks.
    if (this.engine === 'postgres') due = due.forUpdate().skipLocked();
    const rows = await this.db
      .updateTable('payments')
      .set({ checking_until: leaseUntil, checked_at: now })
      .where('id', 'in', due)
      .returningAll()
      .execute();
    return rows.sort((a, b) => (a.next_check_at! < b.next_check_at! ? -1 : a.next_check_at! > b.next_check_at! ? 1 : 0));
  }

  // ---- idempotency

  getIdempotency(merchantId: string, livemode: boolean, key: string): Promise<IdempotencyRow | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('livemode', '=', livemode ? 1 : 0)
      .where('key', '=', key)
      .executeTakeFirst();
  }

  async beginIdempotency(row: IdempotencyRow): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        // An expired record of the same key no longer counts.
        await trx
          .deleteFrom('idempotency_keys')
          .where('merchant_id', '=', row.merchant_id)
          .where('livemode', '=', row.livemode)
          .where('key', '=', row.key)
          .where('expires_at', '<=', row.created_at)
          .execute();
        await trx.insertInto('idempotency_keys').values(row).execute();
      });
      return true;
    } catch (error) {
      if (this.isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async takeOverIdempotency(row: IdempotencyRow, staleCreatedAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ request_hash: row.request_hash, created_at: row.created_at, expires_at: row.expires_at })
      .where('merchant_id', '=', row.merchant_id)
      .where('livemode', '=', row.livemode)
      .where('key', '=', row.key)
      .where('status_code', 'is', null)
      .where('created_at', '=', staleCreatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async completeIdempotency(merchantId: string, livemode: boolean, key: string, statusCode: number, body: string): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response_body: body })
      .where('merchant_id', '=', merchantId)
      .where('livemode', '=', livemode ? 1 : 0)
      .where('key', '=', key)
      .execute();
  }

  async deleteIdempotency(merchantId: string, livemode: boolean, key: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('merchant_id', '=', merchantId)
      .where('livemode', '=', livemode ? 1 : 0)
      .where('key', '=', key)
      .execute();
  }

  async purgeIdempotency(now: string): Promise<number> {
    const r = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  // ---- events and webhooks

  getEvent(id: string): Promise<EventRow | undefined> {
    return this.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listEvents(merchantId: string, livemode: boolean, page: PageQuery): Promise<EventRow[]> {
    let q = this.db
      .selectFrom('events')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('livemode', '=', livemode ? 1 : 0);
    if (page.startingAfter) q = q.where('id', '<', page.startingAfter);
    return q.orderBy('id', 'desc').limit(page.limit).execute();
  }

  async enqueueDelivery(eventId: string, now: string): Promise<boolean> {
    const event = await this.getEvent(eventId);
    if (!event) return false;
    const merchant = await this.getMerchant(event.merchant_id);
    if (!merchant?.webhook_url) return false;
    await this.db.insertInto('webhook_outbox').values(newOutboxRow(eventId, event.merchant_id, now)).execute();
    return true;
  }

  async metricsSnapshot(now: string): Promise<MetricsSnapshot> {
    // Both queries stay on indexes (payments_next_check, webhook_outbox_due): cheap at every scrape.
    const watched = await this.db
      .selectFrom('payments')
      .select(['status', (eb) => eb.fn.countAll<number | string | bigint>().as('n')])
      .where('next_check_at', 'is not', null)
      .groupBy('status')
      .execute();
    const outbox = await this.db
      .selectFrom('webhook_outbox')
      .select([
        (eb) => eb.fn.countAll<number | string | bigint>().as('n'),
        (eb) => eb.fn.min(eb.case().when('next_attempt_at', '<=', now).then(eb.ref('next_attempt_at')).end()).as('oldest'),
      ])
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return {
      watched: watched.map((r) => ({ status: r.status, count: Number(r.n) })),
      outboxPending: Number(outbox?.n ?? 0),
      outboxOldestDueAt: (outbox?.oldest as string | null | undefined) ?? null,
    };
  }

  async claimDeliveries(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    let due = this.db
      .selectFrom('webhook_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    if (this.engine === 'postgres') due = due.forUpdate().skipLocked();
    // The UPDATE is the claim: the rows are this worker's until leaseUntil.
    const leased = await this.db
      .updateTable('webhook_outbox')
      .set({ lease_until: leaseUntil })
      .where('id', 'in', due)
      .returning('id')
      .execute();
    if (leased.length === 0) return [];
    const rows = await this.db
      .selectFrom('webhook_outbox')
      .innerJoin('events', 'events.id', 'webhook_outbox.event_id')
      .innerJoin('merchants', 'merchants.id', 'webhook_outbox.merchant_id')
      .selectAll('webhook_outbox')
      .select(['events.body as event_body', 'merchants.webhook_url', 'merchants.webhook_disabled'])
      .where(
        'webhook_outbox.id',
        'in',
        leased.map((r) => r.id),
      )
      .orderBy('webhook_outbox.next_attempt_at')
      .execute();
    return rows.map(({ event_body, webhook_url, webhook_disabled, ...outbox }) => ({
      outbox,
      eventBody: event_body,
      webhookUrl: webhook_url,
      webhookDisabled: webhook_disabled === 1,
    }));
  }

  async finishDelivery(
    id: string,
    result: Parameters<Store['finishDelivery']>[1],
  ): Promise<void> {
    const q = this.db.updateTable('webhook_outbox').where('id', '=', id);
    const current = await this.db.selectFrom('webhook_outbox').select('attempts').where('id', '=', id).executeTakeFirst();
    const n = (current?.attempts ?? 0) + 1;
    switch (result.kind) {
      case 'delivered':
        await q.set({ status: 'delivered', attempts: n, last_status: result.status, last_error: null, delivered_at: result.at, lease_until: null }).execute();
        return;
      case 'retry':
        await q
          .set({ attempts: n, last_status: result.status, last_error: result.error, next_attempt_at: result.nextAttemptAt, lease_until: null })
          .execute();
        return;
      case 'failed':
        await q.set({ status: 'failed', attempts: n, last_status: result.status, last_error: result.error, lease_until: null }).execute();
        return;
      case 'disabled':
        await this.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('webhook_outbox')
            .set({ status: 'disabled', attempts: n, last_status: result.status, last_error: 'endpoint answered 410 Gone', lease_until: null })
            .where('id', '=', id)
            .execute();
          const row = await trx.selectFrom('webhook_outbox').select('merchant_id').where('id', '=', id).executeTakeFirst();
          if (row) {
            await trx.updateTable('merchants').set({ webhook_disabled: 1 }).where('id', '=', row.merchant_id).execute();
            // Nothing else goes to a disabled endpoint.
            await trx
              .updateTable('webhook_outbox')
              .set({ status: 'disabled', lease_until: null })
              .where('merchant_id', '=', row.merchant_id)
              .where('status', '=', 'pending')
              .execute();
          }
        });
        return;
    }
  }
}

class StaleWrite extends Error {}
class SignatureTaken extends Error {}

function newOutboxRow(eventId: string, merchantId: string, now: string): OutboxRow {
  return {
    id: newOutboxId(),
    event_id: eventId,
    merchant_id: merchantId,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
    created_at: now,
  };
}
