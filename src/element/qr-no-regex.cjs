// Stand-in for qrcode's lib/core/regex.js (swapped in by rollup.config.mjs): its tests only serve the
// choice between numeric, alphanumeric and kanji modes, which qr-byte-segments.cjs never makes.
const never = () => false;
module.exports = { testKanji: never, testNumeric: never, testAlphanumeric: never };
