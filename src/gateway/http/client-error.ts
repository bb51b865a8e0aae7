/**
 * Requests that Node's HTTP parser refuses before Express sees them (a malformed request line or
 * header, headers over Node's 16 KiB limit, a request that never finishes, an Expect it cannot meet, an
 * HTTP/1.1 request without Host) still get an RFC 9457
 * problem answer, like every other error of the API, instead of Node's bare "400 Bad Request".
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { ApiError, PROBLEM_TYPE_BASE } from './problem.js';

function answer(error: NodeJS.ErrnoException): [number, string, string, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers are larger than the server accepts.'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time.'];
    default:
      return [400, 'Bad Request', 'malformed_request', 'The request is not valid HTTP/1.1.'];
  }
}

export function answerClientErrors(server: Server): void {
  // Node answers an HTTP/1.1 request without Host with a bare 400 itself; let `requireHost` answer it instead.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset connection, or one whose response already started, cannot take an answer.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, title, code, detail] = answer(error);
    const { requestId, body } = problem(status, title, code, detail);
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  // An Expect header other than 100-continue: Node would answer a bare 417 itself.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const { requestId, body } = problem(417, 'Expectation Failed', 'expectation_failed', 'Only "Expect: 100-continue" is supported.');
    res.writeHead(417, { 'content-type': 'application/problem+json; charset=utf-8', 'x-request-id': requestId, connection: 'close' });
    res.end(body);
  });
}

function problem(status: number, title: string, code: string, detail: string): { requestId: string; body: string } {
  const requestId = 'req_' + randomBytes(10).toString('hex');
  return { requestId, body: JSON.stringify({ type: PROBLEM_TYPE_BASE + code, title, status, detail, code, requestId }) };
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2): 400 `host_missing` as a problem, like Node would refuse it. */
export const requireHost: RequestHandler = (req, _res, next) => {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host) {
    return next(new ApiError(400, 'host_missing', 'HTTP/1.1 requests must carry a Host header.'));
  }
  next();
};
