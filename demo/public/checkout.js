// Puts <svc-checkout> on the page for this order. The element POSTs {orderId} to our
// /checkout/session, where the server creates the payment with the secret key.
const params = new URLSearchParams(location.search);
const orderId = params.get('order') ?? '';
document.getElementById('order-id').textContent = orderId;

const checkout = document.createElement('svc-checkout');
checkout.setAttribute('session-url', '/checkout/session');
checkout.setAttribute('mode', params.get('mode') === 'button' ? 'button' : 'inline');
checkout.sessionData = { orderId };
checkout.addEventListener('svc-confirmed', () => {
  const link = document.getElementById('order-link');
  link.href = `/order.html?order=${encodeURIComponent(orderId)}`;
  document.getElementById('after-payment').hidden = false;
});
document.getElementById('checkout-slot').append(checkout);

// The order summary beside the checkout, as the server priced it.
const res = await fetch(`/api/orders/${encodeURIComponent(orderId)}`);
if (res.ok) {
  const order = await res.json();
  document.getElementById('summary-lines').replaceChildren(
    ...order.items.map((item) => {
      const li = document.createElement('li');
      const name = document.createElement('span');
      name.textContent = `${item.quantity} × ${item.name}`;
      const price = document.createElement('span');
      price.textContent = `${((Math.round(Number(item.price) * 100) * item.quantity) / 100).toFixed(2)} ${order.currency}`;
      li.append(name, price);
      return li;
    }),
  );
  document.getElementById('summary-total').textContent = `${order.total} ${order.currency}`;
}
