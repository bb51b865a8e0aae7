/**
 * Links that take the customer to a wallet. The `solana:` URL opens whichever wallet handles it; Phantom and
 * Solflare also offer "browse" links that open this page inside their in-app browser, where the wallet is
 * injected and "Pay with <wallet>" works.
 */

export interface BrowseLink {
  name: string;
  href: string;
}

export function browseLinks(pageUrl: string, origin: string): BrowseLink[] {
  const page = encodeURIComponent(pageUrl);
  const ref = encodeURIComponent(origin);
  return [
    { name: 'Phantom', href: `https://phantom.app/ul/browse/${page}?ref=${ref}` },
    { name: 'Solflare', href: `https://solflare.com/ul/v1/browse/${page}?ref=${ref}` },
  ];
}

/** Phones get the browse links up front; elsewhere they sit behind "other wallets". */
export function isPhone(nav: Navigator = navigator): boolean {
  const data = (nav as Navigator & { userAgentData?: { mobile?: boolean } }).userAgentData;
  return !!data?.mobile || /Android|iPhone|iPad|iPod|Mobile/i.test(nav.userAgent);
}

/** Only a `solana:` URL may become the "open in wallet" link (never javascript: or anything else). */
export function walletLink(url: string): string | null {
  return /^solana:[1-9A-HJ-NP-Za-km-z]{32,44}(\?|$)/.test(url) ? url : null;
}
