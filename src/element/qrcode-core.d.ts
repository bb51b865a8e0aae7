// Types for the encoder core of `qrcode` (@types/qrcode covers only its public entry).
declare module 'qrcode/lib/core/qrcode.js' {
  interface BitMatrix {
    size: number;
    get(row: number, col: number): number | boolean;
  }
  const QRCodeCore: { create(text: string, options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): { modules: BitMatrix } };
  export default QRCodeCore;
}
