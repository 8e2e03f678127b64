import { checkHookUrl } from './hook-url';

describe('hook URLs', () => {
  it('takes http and https only (422 Invalid url given otherwise)', async () => {
    await expect(checkHookUrl(' https://93.184.216.34/hook ', false)).resolves.toBe('https://93.184.216.34/hook');
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://x', 'http//missing', '']) {
      await expect(checkHookUrl(url, true)).rejects.toMatchObject({
        message: 'Invalid url given',
        extensions: { code: 'UNPROCESSABLE' },
      });
    }
  });

  it('refuses loopback, private and link-local targets unless local addresses are allowed', async () => {
    for (const url of [
      'http://127.0.0.1:9000/',
      'http://localhost/',
      'http://10.0.0.5/',
      'http://[::1]/',
      'http://169.254.169.254/latest',
      'http://[::ffff:127.0.0.1]/',
      'http://0x7f000001/',
    ]) {
      await expect(checkHookUrl(url, false)).rejects.toMatchObject({
        message: 'Url is blocked: Requests to the local network are not allowed',
      });
    }
    await expect(checkHookUrl('http://127.0.0.1:9000/', true)).resolves.toBe('http://127.0.0.1:9000/');
  });
});
