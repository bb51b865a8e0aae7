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
