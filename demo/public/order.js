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
  document.getElementById('order-lines').replaceChildren(
    ...order.items.map((item) => {
      const li = document.createElement('li');
      li.textContent = `${item.quantity} × ${item.name}`;
      return li;
    }),
  );
  document.getElementById('order-total').textContent = `Total: ${order.total} ${order.currency}`;
  const extra = order.extraPayments ?? [];
  const notice = document.getElementById('order-extra');
  notice.hidden = extra.length === 0;
  notice.textContent = `This order was paid ${extra.length + 1} times; the shop will refund ${extra.length === 1 ? 'the extra payment' : `${extra.length} extra payments`}.`;
  if (order.signature) document.getElementById('order-signature').textContent = `Transaction: ${order.signature}`;
  if (order.status !== 'paid') setTimeout(refresh, 1500);
}
refresh();
