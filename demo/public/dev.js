// Lists unpaid orders and pays one through the localnet's throwaway payer (development only).
const list = document.getElementById('open-orders');
const result = document.getElementById('dev-result');

async function pay(orderId, button) {
  button.disabled = true;
  result.textContent = `Paying ${orderId}…`;
  const res = await fetch('/api/dev/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId }) });
  const body = await res.json();
  result.textContent = res.ok ? `Sent ${body.signature} for ${orderId}.` : body.error;
  button.disabled = false;
}

async function load() {
  const res = await fetch('/api/dev/open-orders');
  if (!res.ok) {
    result.textContent = 'Developer tools are off (production mode, or no local chain).';
    return;
  }
  const orders = await res.json();
  if (orders.length === 0) result.textContent = 'No open orders. Add something to the cart and check out.';
  list.replaceChildren(
    ...orders.map((order) => {
      const li = document.createElement('li');
      const text = document.createElement('span');
      text.textContent = `${order.id} · ${order.total} ${order.currency} `;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Pay as a customer';
      button.dataset.order = order.id;
      button.addEventListener('click', () => pay(order.id, button));
      li.append(text, button);
      return li;
    }),
  );
}
load();
