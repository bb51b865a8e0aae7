// "Pay with <wallet>" through the Wallet Standard, with a test wallet that really signs and sends.
import { expect } from '@open-wc/testing';
import '../../dist/svc-checkout.mjs';
import { cleanup, mountPayment, part, parts, recordEvents, server, waitFor } from './support/helpers.js';
import { createTestWallet, registerWallet } from './support/test-wallet.js';

describe('Wallet Standard wallets', () => {
  afterEach(cleanup);

  it('finds a wallet that was there first (app-ready), pays with it, and the payment confirms', async function () {
    this.timeout(60000);
    const wallet = await createTestWallet({ name: 'Early Wallet' });
    // An extension injected before the app: it waits for the app's app-ready event.
    window.addEventListener('wallet-standard:app-ready', (e) => e.detail.register(wallet), { once: true });
    await server('svc-airdrop', { address: wallet.account.address, sol: 1, usdc: 50 });
    const events = recordEvents(document, ['svc-confirmed', 'svc-error']);
    const { el } = await mountPayment({}, { amount: '2.50' });
    const button = await waitFor(() => parts(el, 'wallet-button')[0], { message: 'the wallet button' });
    expect(button.textContent.trim()).to.equal('Pay with Early Wallet');
    button.click();
    await waitFor(() => el.status === 'confirmed', { timeout: 40000, message: 'confirmed' });
    expect(wallet.calls).to.deep.equal(['connect', 'signAndSendTransaction']);
    expect(el.payment.payer).to.equal(wallet.account.address);
    expect(events.map((e) => e.type)).to.deep.equal(['svc-confirmed']);
  });

  it('finds a wallet registering later, and a rejection returns calmly to the choice', async () => {
    const { el } = await mountPayment();
    expect(parts(el, 'wallet-button').map((b) => b.textContent.trim())).not.to.include('Pay with Shy Wallet');
    const wallet = await createTestWallet({ name: 'Shy Wallet', reject: true });
    await server('svc-airdrop', { address: wallet.account.address, sol: 1, usdc: 5 });
    registerWallet(wallet);
    await el.updateComplete;
    const button = parts(el, 'wallet-button').find((b) => b.textContent.includes('Shy Wallet'));
    expect(button).to.exist;
    const errors = recordEvents(document, ['svc-error']);
    button.click();
    await waitFor(() => wallet.calls.includes('signAndSendTransaction'), { message: 'the wallet asked' });
    await waitFor(() => part(el, 'status').textContent === 'Payment not sent. You can choose again.', { message: 'the calm notice' });
    expect(button.disabled).to.equal(false);
    expect(el.status).to.equal('pending');
    expect(errors).to.deep.equal([]);
    expect(part(el, 'qr-code')).to.exist;
  });

  it('a payer the gateway refuses (no USDC) hears why, and svc-error says it', async () => {
    const { el } = await mountPayment();
    const wallet = await createTestWallet({ name: 'Empty Wallet' });
    registerWallet(wallet);
    await el.updateComplete;
    const errors = recordEvents(document, ['svc-error']);
    parts(el, 'wallet-button').find((b) => b.textContent.includes('Empty Wallet')).click();
    await waitFor(() => errors.length, { message: 'svc-error' });
    expect(errors[0].detail.status).to.equal(400);
    expect(wallet.calls).to.deep.equal(['connect']);
    await el.updateComplete;
    expect(part(el, 'status').textContent).to.equal(errors[0].detail.message);
    expect(el.status).to.equal('pending');
  });

  it('ignores wallets that cannot sign and send Solana transactions', async () => {
    const { el } = await mountPayment();
    registerWallet({ name: 'Other Chain', version: '1.0.0', icon: '', chains: ['sui:mainnet'], accounts: [], features: { 'standard:connect': { connect() {} } } });
    await el.updateComplete;
    expect(parts(el, 'wallet-button').some((b) => b.textContent.includes('Other Chain'))).to.equal(false);
  });
});
