/**
 * Versioned migrations, defined in code so the compiled gateway needs no migration files on disk.
 * Names sort in order; never edit a shipped migration, add a new one. One list for both engines:
 * types are portable (text, integer, bigint-free); the few differences are the `Engine` switches
 * (identity column, byte-order collation of text on PostgreSQL so ids and ISO times sort as on SQLite).
 */
import { sql, type ColumnDataType, type Expression, type Kysely, type Migration, type MigrationProvider } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

type DataType = ColumnDataType | Expression<unknown>;

/** Column types per engine. */
function types(engine: Engine): { text: DataType } {
  // "C" collation: compare bytes, like SQLite, whatever the database's locale (ids, ISO times, cursors).
  return { text: engine === 'postgres' ? sql`text collate "C"` : 'text' };
}

const m0001 = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const { text } = types(engine);
    await db.schema
      .createTable('merchants')
      .addColumn('id', text, (c) => c.primaryKey())
      .addColumn('name', text, (c) => c.notNull())
      .addColumn('logo_url', text)
      .addColumn('recipient', text, (c) => c.notNull())
      .addColumn('webhook_url', text)
      .addColumn('webhook_disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('mode', text, (c) => c.notNull())
      .addColumn('default_expires_in', 'integer', (c) => c.notNull())
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', text, (c) => c.primaryKey())
      .addColumn('merchant_id', text, (c) => c.notNull().references('merchants.id'))
      .addColumn('kind', text, (c) => c.notNull())
      .addColumn('mode', text, (c) => c.notNull())
      .addColumn('hash', text, (c) => c.notNull().unique())
      .addColumn('prefix', text, (c) => c.notNull())
      .addColumn('revoked_at', text)
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('webhook_secrets')
      .addColumn('id', engine === 'postgres' ? 'serial' : 'integer', (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('merchant_id', text, (c) => c.notNull().references('merchants.id'))
      .addColumn('secret', text, (c) => c.notNull())
      .addColumn('expires_at', text)
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('payments')
      .addColumn('id', text, (c) => c.primaryKey())
      .addColumn('merchant_id', text, (c) => c.notNull().references('merchants.id'))
      .addColumn('livemode', 'integer', (c) => c.notNull())
      .addColumn('status', text, (c) => c.notNull())
      .addColumn('amount', text, (c) => c.notNull())
      .addColumn('amount_base', text, (c) => c.notNull())
      .addColumn('currency', text, (c) => c.notNull())
      .addColumn('mint', text)
      .addColumn('decimals', 'integer', (c) => c.notNull())
      .addColumn('recipient', text, (c) => c.notNull())
      .addColumn('reference', text, (c) => c.notNull().unique())
      .addColumn('url', text, (c) => c.notNull())
      .addColumn('label', text)
      .addColumn('message', text)
      .addColumn('memo', text)
      .addColumn('order_id', text)
      .addColumn('metadata', text, (c) => c.notNull())
      .addColumn('amount_received_base', text)
      .addColumn('signature', text, (c) => c.unique())
      .addColumn('payer', text)
      .addColumn('paid_late', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('overpaid', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', text, (c) => c.notNull())
      .addColumn('expires_at', text, (c) => c.notNull())
      .addColumn('confirmed_at', text)
      .addColumn('cancelled_at', text)
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('next_check_at', text)
      .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('payments_merchant_id').on('payments').columns(['merchant_id', 'livemode', 'id']).execute();
    await db.schema.createIndex('payments_order_id').on('payments').columns(['merchant_id', 'order_id']).execute();
    await db.schema.createIndex('payments_next_check').on('payments').columns(['next_check_at']).execute();

    await db.schema
      .createTable('payment_tokens')
      .addColumn('hash', text, (c) => c.primaryKey())
      .addColumn('payment_id', text, (c) => c.notNull().unique().references('payments.id'))
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('settlements')
      .addColumn('signature', text, (c) => c.primaryKey())
      .addColumn('payment_id', text, (c) => c.notNull().unique().references('payments.id'))
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('underpayments')
      .addColumn('payment_id', text, (c) => c.notNull().references('payments.id'))
      .addColumn('signature', text, (c) => c.notNull())
      .addColumn('amount_base', text, (c) => c.notNull())
      .addColumn('created_at', text, (c) => c.notNull())
      .addPrimaryKeyConstraint('underpayments_pk', ['payment_id', 'signature'])
      .execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('merchant_id', text, (c) => c.notNull())
      .addColumn('livemode', 'integer', (c) => c.notNull())
      .addColumn('key', text, (c) => c.notNull())
      .addColumn('request_hash', text, (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('response_body', text)
      .addColumn('created_at', text, (c) => c.notNull())
      .addColumn('expires_at', text, (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['merchant_id', 'livemode', 'key'])
      .execute();

    await db.schema
      .createTable('events')
      .addColumn('id', text, (c) => c.primaryKey())
      .addColumn('merchant_id', text, (c) => c.notNull())
      .addColumn('livemode', 'integer', (c) => c.notNull())
      .addColumn('type', text, (c) => c.notNull())
      .addColumn('payment_id', text, (c) => c.notNull())
      .addColumn('body', text, (c) => c.notNull())
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_merchant').on('events').columns(['merchant_id', 'livemode', 'id']).execute();

    await db.schema
      .createTable('webhook_outbox')
      .addColumn('id', text, (c) => c.primaryKey())
      .addColumn('event_id', text, (c) => c.notNull().references('events.id'))
      .addColumn('merchant_id', text, (c) => c.notNull())
      .addColumn('status', text, (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', text, (c) => c.notNull())
      .addColumn('lease_until', text)
      .addColumn('last_status', 'integer')
      .addColumn('last_error', text)
      .addColumn('delivered_at', text)
      .addColumn('created_at', text, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_outbox_due').on('webhook_outbox').columns(['status', 'next_attempt_at']).execute();
  },
});

/**
 * Several instances: a payment's chain check is leased (`checking_until`) and its start time kept
 * (`checked_at`), so instances share one check per payment and interval; `rate_limits` holds the
 * shared token buckets (PostgreSQL; SQLite keeps them in memory).
 */
const m0002 = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const { text } = types(engine);
    await db.schema.alterTable('payments').addColumn('checking_until', text).execute();
    await db.schema.alterTable('payments').addColumn('checked_at', text).execute();
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', text, (c) => c.primaryKey())
      .addColumn('tokens', 'double precision', (c) => c.notNull())
      .addColumn('updated_ms', 'bigint', (c) => c.notNull())
      .addColumn('allowed', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limits_updated').on('rate_limits').column('updated_ms').execute();
  },
});

export function migrations(engine: Engine): Record<string, Migration> {
  return {
    '0001_initial': m0001(engine),
    '0002_leases_and_shared_limits': m0002(engine),
  };
}

export class CodeMigrationProvider implements MigrationProvider {
  constructor(private readonly engine: Engine = 'sqlite') {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.engine);
  }
}
