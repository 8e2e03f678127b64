import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrorsAsJson } from './client-errors';

/** Sends raw bytes and returns the raw answer. */
async function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('answerClientErrorsAsJson', () => {
  const server = createServer((_req, res) => res.end('ok'));
  answerClientErrorsAsJson(server, (status, reason) => ({ message: `${status} ${reason}` }));
  let port: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers headers over the limit with 431 and a JSON message', async () => {
    const answer = await raw(port, `GET /?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(answer).toContain('Content-Type: application/json');
    expect(JSON.parse(answer.split('\r\n\r\n')[1])).toEqual({ message: '431 Request Header Fields Too Large' });
  });

  it('answers a malformed request with 400 and a JSON message', async () => {
    const answer = await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(answer.split('\r\n\r\n')[1])).toEqual({ message: '400 Bad Request' });
  });
});
