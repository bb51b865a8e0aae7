/** Code shared by the element, the server SDK and the gateway. No Node or DOM APIs here. */
export * from './payment.js';
