// A Wallet Standard wallet for tests: an Ed25519 key made with WebCrypto, signing the transaction the
// gateway built and sending it to the localnet over JSON-RPC (through the test server's /test/rpc).
// No Solana library: the wire format needs only the signature slots and the account-key list.

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export function base58(bytes) {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

/** Solana's compact-u16: returns [value, bytes read]. */
function shortvec(bytes, at) {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    const b = bytes[at + i];
    value |= (b & 0x7f) << (7 * i);
    if (!(b & 0x80)) return [value, i + 1];
  }
  throw new Error('bad compact-u16');
}

const toBase64 = (bytes) => btoa(String.fromCharCode(...bytes));

export async function createTestWallet({ name = 'Test Wallet', reject = false } = {}) {
  const keys = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
  const account = Object.freeze({
    address: base58(publicKey),
    publicKey,
    chains: ['solana:devnet', 'solana:localnet'],
    features: ['solana:signAndSendTransaction'],
  });
  const calls = [];
  const wallet = {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml;base64,' + btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#5b3fd6"/></svg>'),
    chains: ['solana:devnet', 'solana:localnet'],
    accounts: [],
    calls,
    account,
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async () => {
          calls.push('connect');
          wallet.accounts = [account];
          return { accounts: wallet.accounts };
        },
      },
      'standard:events': { version: '1.0.0', on: () => () => {} },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signAndSendTransaction: async (...inputs) => {
          calls.push('signAndSendTransaction');
          if (reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          const results = [];
          for (const { account: acc, transaction } of inputs) {
            if (acc.address !== account.address) throw new Error('unknown account');
            const tx = new Uint8Array(transaction);
            const [sigCount, sigLen] = shortvec(tx, 0);
            const messageAt = sigLen + 64 * sigCount;
            const message = tx.slice(messageAt);
            const header = message[0] & 0x80 ? 1 : 0; // version prefix of v0 messages
            const required = message[header];
            const [keyCount, keyLen] = shortvec(message, header + 3);
            const keysAt = header + 3 + keyLen;
            let slot = -1;
            for (let i = 0; i < Math.min(required, keyCount); i++) {
              const key = message.slice(keysAt + 32 * i, keysAt + 32 * i + 32);
              if (key.every((b, j) => b === publicKey[j])) slot = i;
            }
            if (slot < 0) throw new Error('this wallet is not a signer of the transaction');
            const signature = new Uint8Array(await crypto.subtle.sign('Ed25519', keys.privateKey, message));
            tx.set(signature, sigLen + 64 * slot);
            const res = await fetch('/test/rpc', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [toBase64(tx), { encoding: 'base64' }] }),
            });
            const answer = await res.json();
            if (answer.error) throw new Error(`sendTransaction: ${answer.error.message}`);
            results.push({ signature });
          }
          return results;
        },
      },
    },
  };
  return wallet;
}

/**
 * Announces a wallet as the standard's registerWallet() does: to an app already listening (the
 * register-wallet event) and to one that comes later (its app-ready event).
 */
export function registerWallet(wallet) {
  const callback = ({ register }) => register(wallet);
  window.addEventListener('wallet-standard:app-ready', (e) => callback(e.detail));
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
}
