import type { PageWindow } from '@hub/common';
import type { Request, Response } from 'express';

const firstOf = (value: string | undefined) => value?.split(',')[0].trim() || undefined;

/** The base URL the client used, honouring a proxy in front (X-Forwarded-Proto / -Host). */
export function clientBaseUrl(req: Request): string {
  const proto = firstOf(req.header('x-forwarded-proto')) ?? req.protocol;
  const host = firstOf(req.header('x-forwarded-host')) ?? req.header('host') ?? 'localhost';
  return `${proto}://${host}`;
}

/**
 * GitLab v8's pagination headers: Link (prev, next, first, last; prev absent on the first page
 * and next on the last), X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page.
 * Link URLs are absolute and carry, besides page and per_page, the parameters the route read
 * (`params`, normalised by Params) rather than the raw query: never credentials, unknown
 * parameters or repeated raw text, so a hostile query cannot blow the header up.
 */
export function writePaginationHeaders(
  req: Request,
  res: Response,
  window: PageWindow,
  total: number,
  params: Array<[string, string]>,
): void {
  const totalPages = Math.max(1, Math.ceil(total / window.perPage));
  const [path] = req.originalUrl.split('?', 1);
  const base = `${clientBaseUrl(req)}${path}`;
  const link = (page: number, rel: string) => {
    const query = new URLSearchParams(params);
    query.set('page', String(page));
    query.set('per_page', String(window.perPage));
    return `<${base}?${query}>; rel="${rel}"`;
  };
  const prev = window.page > 1 ? Math.min(window.page - 1, totalPages) : null;
  const next = window.page < totalPages ? window.page + 1 : null;
  const links = [];
  if (prev !== null) links.push(link(prev, 'prev'));
  if (next !== null) links.push(link(next, 'next'));
  links.push(link(1, 'first'), link(totalPages, 'last'));
  res.setHeader('Link', links.join(', '));
  res.setHeader('X-Total', String(total));
  res.setHeader('X-Total-Pages', String(totalPages));
  res.setHeader('X-Per-Page', String(window.perPage));
  res.setHeader('X-Page', String(window.page));
  res.setHeader('X-Next-Page', next === null ? '' : String(next));
  res.setHeader('X-Prev-Page', prev === null ? '' : String(prev));
}
