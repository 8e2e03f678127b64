import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before any handler sees them (headers or a URL over 16 KiB,
 * malformed request lines) are answered with a JSON body of `bodyOf`'s shape rather than Node's
 * bare status line: a client reads every error the same way. The status is Node's own choice.
 */
export function answerClientErrorsAsJson(server: Server, bodyOf: (status: number, reason: string) => object): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const reason = STATUS_CODES[status]!;
    const body = JSON.stringify(bodyOf(status, reason));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
