// The shop's products. Prices live on the server: the browser only sends product ids and quantities.
export const CURRENCY = 'USDC';

export const PRODUCTS = [
  { id: 'mug', name: 'Validator mug', description: 'Holds 400 ml of coffee, or one epoch of patience.', price: '12.50' },
  { id: 'tee', name: 'Finality tee', description: 'Organic cotton. Confirmed, then finalized.', price: '24.00' },
  { id: 'stickers', name: 'Sticker pack', description: 'Eight stickers, one for each stage of a payment.', price: '3.75' },
];

export function findProduct(id) {
  return PRODUCTS.find((p) => p.id === id) ?? null;
}
