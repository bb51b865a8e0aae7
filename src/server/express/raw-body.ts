/** Reads a request body as bytes, bounded, without any body-parser. */
import type { IncomingMessage } from 'node:http';

export class BodyTooLarge extends Error {}

export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        // Stop buffering but drain what is left so the answer can still be written.
        req.resume();
        reject(new BodyTooLarge(`The body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Something already consumed the stream (a body parser ran before us). */
export function alreadyRead(req: IncomingMessage): boolean {
  return req.readableEnded || (req as { _body?: unknown })._body === true;
}
