// Orders kept in a JSON file: small, readable, and enough for a demo. Writes go to a temporary
// file renamed over the old one, so a crash never leaves half an order book behind.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class OrderBook {
  #file;
  #orders;

  constructor(file) {
    this.#file = file;
    mkdirSync(dirname(file), { recursive: true });
    try {
      this.#orders = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      this.#orders = {};
    }
  }

  create({ items, total, currency }) {
    const id = `ord_${randomBytes(8).toString('hex')}`;
    const order = { id, items, total, currency, status: 'awaiting_payment', paymentId: null, signature: null, createdAt: new Date().toISOString(), paidAt: null };
    this.#orders[id] = order;
    this.#save();
    return order;
  }

  get(id) {
    return Object.hasOwn(this.#orders, id) ? this.#orders[id] : null;
  }

  list() {
    return Object.values(this.#orders).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  update(id, changes) {
    const order = this.get(id);
    if (!order) return null;
    Object.assign(order, changes);
    this.#save();
    return order;
  }

  #save() {
    const tmp = `${this.#file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.#orders, null, 2));
    renameSync(tmp, this.#file);
  }
}
