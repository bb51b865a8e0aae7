// Catalogue and cart. The cart lives in localStorage; prices shown here are for display only:
// the server computes the order total from its own catalogue.
const CART_KEY = 'demo-cart';
const cart = JSON.parse(localStorage.getItem(CART_KEY) ?? '{}');
let catalogue = { currency: 'USDC', products: [] };

const cents = (price) => Math.round(Number(price) * 100);

function saveCart() {
  localStorage.setItem(CART_KEY, JSON.stringify(cart));
  renderCart();
}

function renderProducts() {
  const list = document.getElementById('products');
  list.replaceChildren(
    ...catalogue.products.map((product) => {
      const li = document.createElement('li');
      li.className = 'product';
      const title = document.createElement('h3');
      title.textContent = product.name;
      const text = document.createElement('p');
      text.textContent = product.description;
      const price = document.createElement('p');
      price.className = 'price';
      price.textContent = `${product.price} ${catalogue.currency}`;
      const add = document.createElement('button');
      add.type = 'button';
      add.textContent = 'Add to cart';
      add.dataset.product = product.id;
      add.addEventListener('click', () => {
        cart[product.id] = (cart[product.id] ?? 0) + 1;
        saveCart();
      });
      li.append(title, text, price, add);
      return li;
    }),
  );
}

function renderCart() {
  const lines = document.getElementById('cart-lines');
  let total = 0;
  lines.replaceChildren(
    ...Object.entries(cart).map(([id, quantity]) => {
      const product = catalogue.products.find((p) => p.id === id);
      const li = document.createElement('li');
      if (!product) return li;
      total += cents(product.price) * quantity;
      li.textContent = `${quantity} × ${product.name}`;
      return li;
    }),
  );
  document.getElementById('cart-total').textContent = (total / 100).toFixed(2);
  document.getElementById('cart-currency').textContent = catalogue.currency;
  document.getElementById('checkout').disabled = total === 0;
}

async function checkout() {
  const items = Object.entries(cart).map(([id, quantity]) => ({ id, quantity }));
  const res = await fetch('/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items }) });
  const body = await res.json();
  if (!res.ok) {
    document.getElementById('cart-error').textContent = body.error ?? 'Could not create the order.';
    return;
  }
  for (const id of Object.keys(cart)) delete cart[id];
  saveCart();
  const mode = new URLSearchParams(location.search).get('mode');
  location.href = `/checkout.html?order=${encodeURIComponent(body.id)}${mode ? `&mode=${encodeURIComponent(mode)}` : ''}`;
}

document.getElementById('checkout').addEventListener('click', checkout);
catalogue = await (await fetch('/api/products')).json();
renderProducts();
renderCart();
