// Shows the order as the shop's server sees it: "paid" appears only after the signed
// payment.confirmed webhook has reached the server, so this page polls until then.
const orderId = new URLSearchParams(location.search).get('order') ?? '';
document.getElementById('order-id').textContent = orderId;
const LABELS = { awaiting_payment: 'Awaiting payment', paid: 'Paid' };

async function refresh() {
  const res = await fetch(`/api/orders/${encodeURIComponent(orderId)}`);
  const status = document.getElementById('order-status');
  if (!res.ok) {
    status.textContent = 'Order not found';
    return;
  }
  const order = await res.json();
  status.textContent = LABELS[order.status] ?? order.status;
  status.dataset.status = order.status;
  document.getElementById('order-total').textContent = `Total: ${order.total} ${order.currency}`;
  if (order.signature) document.getElementById('order-signature').textContent = `Transaction: ${order.signature}`;
  if (order.status !== 'paid') setTimeout(refresh, 1500);
}
refresh();
