// Prices are decimal strings; sum them in integer cents so no float ever touches money.
const CENTS = /^(\d+)\.(\d{2})$/;

export function toCents(price) {
  const m = CENTS.exec(price);
  if (!m) throw new Error(`price must look like 12.50, got ${price}`);
  return Number(m[1]) * 100 + Number(m[2]);
}

export function fromCents(cents) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
