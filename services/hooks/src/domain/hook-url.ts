import { hostOf, pointsInside, unprocessable } from '@hub/common';

const SCHEMES = new Set(['http:', 'https:']);

/**
 * GitLab's hook URL rules: http or https, else 422 "Invalid url given". Unless local addresses are
 * allowed, a URL whose host is or resolves to a loopback, private or link-local address is 422 too
 * (later GitLab's wording). The worker checks again when it connects: DNS may change meanwhile.
 */
export async function checkHookUrl(raw: string, allowLocal: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw unprocessable('Invalid url given');
  }
  if (!SCHEMES.has(url.protocol) || !url.hostname) throw unprocessable('Invalid url given');
  if (!allowLocal && (await pointsInside(hostOf(url)))) {
    throw unprocessable('Url is blocked: Requests to the local network are not allowed');
  }
  return raw.trim();
}
