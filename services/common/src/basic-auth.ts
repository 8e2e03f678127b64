/**
 * HTTP basic credentials (`Authorization: Basic base64(login:secret)`), as git sends them; undefined
 * for any other header. The login is empty when the decoded value has no colon or starts with one.
 */
export function decodeBasicAuth(authorization: string | undefined): { login: string; secret: string } | undefined {
  const encoded = authorization?.match(/^Basic\s+(\S+)$/i)?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? { login: '', secret: '' } : { login: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
