/**
 * Interface text in eight languages. The locale comes from the `locale` attribute, else <html lang>,
 * else English; "pt-BR" falls back to "pt". Arabic is laid out right to left.
 *
 * The ES module build embeds every language. The classic-script build (svc-checkout.js, under a 20 KB
 * budget) embeds English only: rollup.config.mjs sets LAZY and moves the other rows of TABLE to
 * locales/<lang>.json next to the script, fetched the first time a language is used.
 */

const KEYS = [
  'payTo', 'amount', 'scan', 'openWallet', 'payWith', 'otherWallets', 'copyAddress', 'copyAmount', 'copied',
  'expiresIn', 'pending', 'processing', 'confirmed', 'expired', 'cancelled', 'reconnecting', 'loading',
  'error', 'retry', 'startAgain', 'close', 'open', 'walletWaiting', 'walletRejected', 'address', 'underpaid',
] as const;
export type MessageKey = (typeof KEYS)[number];

// One string per key, in KEYS order, separated by "|" to keep the bundle small. {0} is a parameter.
const TABLE: Record<string, string> = {
  en: 'Pay {0}|Amount|Scan with a Solana wallet|Open in wallet|Pay with {0}|Other wallets|Copy address|Copy amount|Copied|Expires in {0}|Waiting for payment|Payment received, confirming…|Payment confirmed|This payment has expired|This payment was cancelled|Reconnecting…|Loading…|Something went wrong|Try again|Start again|Close|Pay with Solana|Confirm in your wallet…|Payment not sent. You can choose again.|Address|Received {0}, less than the amount due. Please contact the shop.',
  es: 'Pagar a {0}|Importe|Escanea con una billetera Solana|Abrir en la billetera|Pagar con {0}|Otras billeteras|Copiar dirección|Copiar importe|Copiado|Caduca en {0}|Esperando el pago|Pago recibido, confirmando…|Pago confirmado|Este pago ha caducado|Este pago fue cancelado|Reconectando…|Cargando…|Algo salió mal|Reintentar|Empezar de nuevo|Cerrar|Pagar con Solana|Confirma en tu billetera…|Pago no enviado. Puedes elegir de nuevo.|Dirección|Recibido {0}, menos del importe debido. Contacta con la tienda.',
  fr: 'Payer {0}|Montant|Scannez avec un portefeuille Solana|Ouvrir dans le portefeuille|Payer avec {0}|Autres portefeuilles|Copier l’adresse|Copier le montant|Copié|Expire dans {0}|En attente du paiement|Paiement reçu, confirmation…|Paiement confirmé|Ce paiement a expiré|Ce paiement a été annulé|Reconnexion…|Chargement…|Une erreur est survenue|Réessayer|Recommencer|Fermer|Payer avec Solana|Confirmez dans votre portefeuille…|Paiement non envoyé. Vous pouvez choisir à nouveau.|Adresse|Reçu {0}, moins que le montant dû. Veuillez contacter la boutique.',
  de: '{0} bezahlen|Betrag|Mit einer Solana-Wallet scannen|In Wallet öffnen|Mit {0} bezahlen|Andere Wallets|Adresse kopieren|Betrag kopieren|Kopiert|Läuft ab in {0}|Warte auf Zahlung|Zahlung erhalten, wird bestätigt…|Zahlung bestätigt|Diese Zahlung ist abgelaufen|Diese Zahlung wurde storniert|Verbinde erneut…|Wird geladen…|Etwas ist schiefgelaufen|Erneut versuchen|Neu starten|Schließen|Mit Solana bezahlen|In der Wallet bestätigen…|Zahlung nicht gesendet. Sie können neu wählen.|Adresse|{0} erhalten, weniger als der fällige Betrag. Bitte wenden Sie sich an den Shop.',
  pt: 'Pagar a {0}|Valor|Digitalize com uma carteira Solana|Abrir na carteira|Pagar com {0}|Outras carteiras|Copiar endereço|Copiar valor|Copiado|Expira em {0}|Aguardando pagamento|Pagamento recebido, confirmando…|Pagamento confirmado|Este pagamento expirou|Este pagamento foi cancelado|Reconectando…|Carregando…|Algo deu errado|Tentar novamente|Recomeçar|Fechar|Pagar com Solana|Confirme na sua carteira…|Pagamento não enviado. Você pode escolher novamente.|Endereço|Recebido {0}, menos do que o valor devido. Entre em contato com a loja.',
  ja: '{0} へのお支払い|金額|Solana ウォレットでスキャン|ウォレットで開く|{0} で支払う|その他のウォレット|アドレスをコピー|金額をコピー|コピーしました|残り {0}|お支払いを待っています|受け取りました。確認中…|お支払いが確認されました|このお支払いは期限切れです|このお支払いはキャンセルされました|再接続中…|読み込み中…|エラーが発生しました|再試行|最初からやり直す|閉じる|Solana で支払う|ウォレットで承認してください…|送金されていません。もう一度選択できます。|アドレス|{0} を受け取りましたが、請求額に足りません。ショップにお問い合わせください。',
  zh: '向 {0} 付款|金额|使用 Solana 钱包扫码|在钱包中打开|使用 {0} 付款|其他钱包|复制地址|复制金额|已复制|{0} 后过期|等待付款|已收到付款，确认中…|付款已确认|此付款已过期|此付款已取消|正在重新连接…|加载中…|出错了|重试|重新开始|关闭|使用 Solana 付款|请在钱包中确认…|付款未发送。您可以重新选择。|地址|已收到 {0}，少于应付金额。请联系商家。',
  ar: 'ادفع إلى {0}|المبلغ|امسح باستخدام محفظة Solana|افتح في المحفظة|ادفع باستخدام {0}|محافظ أخرى|نسخ العنوان|نسخ المبلغ|تم النسخ|تنتهي الصلاحية خلال {0}|في انتظار الدفع|تم استلام الدفعة، جارٍ التأكيد…|تم تأكيد الدفع|انتهت صلاحية هذه الدفعة|تم إلغاء هذه الدفعة|جارٍ إعادة الاتصال…|جارٍ التحميل…|حدث خطأ ما|إعادة المحاولة|ابدأ من جديد|إغلاق|ادفع باستخدام Solana|أكّد في محفظتك…|لم يتم إرسال الدفعة. يمكنك الاختيار مرة أخرى.|العنوان|تم استلام {0}، وهو أقل من المبلغ المستحق. يرجى التواصل مع المتجر.',
};

const LAZY = false;
export const LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'ja', 'zh', 'ar'];
const RTL = new Set(['ar']);
const cache = new Map<string, Record<MessageKey, string>>();

/** The supported locale for a BCP 47 tag ("pt-BR" → "pt", unknown → "en"). */
export function resolveLocale(tag: string | null | undefined): string {
  const base = (tag || '').toLowerCase().split(/[-_]/)[0] ?? '';
  return LOCALES.includes(base) ? base : 'en';
}

export function isRtl(locale: string): boolean {
  return RTL.has(locale);
}

/** The messages of `locale`, or English while that language is still loading (classic-script build). */
export function messages(locale: string): Record<MessageKey, string> {
  let m = cache.get(locale);
  if (!m && TABLE[locale]) {
    const parts = TABLE[locale].split('|');
    m = Object.fromEntries(KEYS.map((k, i) => [k, parts[i] ?? ''])) as Record<MessageKey, string>;
    cache.set(locale, m);
  }
  return m ?? messages('en');
}

const loading = new Map<string, Promise<void>>();

/** Resolves once `locale` can be shown; null when it already can. A failed load leaves English. */
export function loadLocale(locale: string): Promise<void> | null {
  if (!LAZY || TABLE[locale] || !LOCALES.includes(locale)) return null;
  let p = loading.get(locale);
  if (!p) {
    p = fetch(new URL(`locales/${locale}.json`, import.meta.url))
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((m: Record<MessageKey, string>) => {
        if (typeof m === 'object' && m) TABLE[locale] = KEYS.map((k) => String(m[k] ?? '')).join('|');
      })
      .catch((err) => console.warn(`svc-checkout: locale ${locale} unavailable, showing English.`, err));
    loading.set(locale, p);
  }
  return p;
}

export function format(template: string, arg: string): string {
  return template.replace('{0}', arg);
}
