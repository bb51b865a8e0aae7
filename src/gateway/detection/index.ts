/** Fast detection of incoming transfers by watching the merchants' receiving addresses. */
export { RecipientWatch, type RecipientWatchOptions, type WatchedPayment } from './recipient-watch.js';
