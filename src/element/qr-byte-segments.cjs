// Byte-mode-only stand-in for qrcode's lib/core/segments.js, swapped in by rollup.config.mjs.
// The original finds the optimal mix of numeric/alphanumeric/kanji/byte segments with a shortest-path
// search (dijkstrajs, kanji tables): about 4 KB gzip for a gain of at most one QR version on a `solana:`
// URL, which is byte mode anyway (lower-case letters). One UTF-8 byte segment encodes any text.
// CommonJS like the module it replaces, so rollup's commonjs plugin needs no ESM interop helpers.
/* eslint-disable @typescript-eslint/no-require-imports */
const ByteData = require('qrcode/lib/core/byte-data.js');

const single = (text) => [new ByteData(text)];

module.exports = {
  fromString: single,
  rawSplit: single,
  fromArray: (array) => array.map((seg) => new ByteData(typeof seg === 'string' ? seg : seg.data)),
};
