import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import express, { type Request, type RequestHandler } from 'express';

/**
 * The GraphQL explorer for browsers (issue 33): GraphiQL with a private-token field, its docs
 * explorer and query history, bundled at build time by gateway/scripts/bundle-explorer.cjs into
 * dist/explorer. The page and its assets come from the gateway alone: no CDN, no web fonts.
 */

/** Below the path the router is mounted on (/graphql): where the content-hashed assets are served. */
export const EXPLORER_ASSETS_PATH = '/explorer';

/** The bundle script's output, beside the compiled code (from src as well: src/../dist). */
export const EXPLORER_DIR = resolve(__dirname, '..', 'dist', 'explorer');

/**
 * Only this origin, for scripts, styles, fonts, images and the page's requests. No inline styles:
 * GraphiQL works without them. It sets styles through the CSSOM (CodeMirror 5, React,
 * framer-motion), which style-src does not govern, and the bundle script turns the data: fonts and
 * images of its stylesheet into files. Its dialogs (settings, short keys) try to add one <style>
 * element, Radix's scroll lock for the page behind them; the browser refuses it (a CSP report in
 * the console) and nothing changes, as this page does not scroll.
 *
 * connect-src 'self' covers the page's subscriptions too: under CSP Level 3, 'self' matches ws: of
 * an http: page's own host and port (wss: of an https: page). Chromium does (the explorer's e2e
 * test subscribes under this policy with no violation), as Chrome has since 71 and Safari since 16,
 * the oldest the bundle targets. Naming the ws origin instead would mean writing each request's
 * Host into the header, for nothing.
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// As Apollo Server chose its landing page: a GET whose Accept header ranks HTML above every
// GraphQL answer. curl's */* and a missing header get GraphQL, as before.
const GRAPHQL_ANSWERS = ['application/json', 'application/graphql-response+json', 'multipart/mixed'];
export const prefersHtml = (req: Request) =>
  req.method === 'GET' && !!req.headers.accept && req.accepts([...GRAPHQL_ANSWERS, 'text/html']) === 'text/html';

/**
 * The explorer's router, for the /graphql mount ahead of the GraphQL server: `GET /graphql` that
 * prefers HTML gets the page; GET and HEAD of `/graphql/explorer/<asset>` get the assets (404 for
 * any other name there); everything else goes on to the GraphQL server untouched.
 */
export function explorerRouter(dir = EXPLORER_DIR): express.Router {
  const indexFile = resolve(dir, 'index.html');
  if (!existsSync(indexFile))
    throw new Error(`the GraphQL explorer is not built (${indexFile} is missing): run the gateway's build`);
  const page = readFileSync(indexFile);
  const router = express.Router({ strict: false });

  const servePage: RequestHandler = (req, res, next) => {
    if (!prefersHtml(req)) return next();
    res
      .status(200)
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': EXPLORER_CSP,
        // The page names the current assets: asked again each time, so a new build shows at once.
        'Cache-Control': 'no-cache',
        // The same URL answers GraphQL to other Accept headers.
        Vary: 'Accept',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      })
      .send(page);
  };
  router.get('/', servePage);

  const assets = express.static(resolve(dir, 'assets'), {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    // Content-hashed names: a changed file gets a new name, so a copy may be kept for a year.
    immutable: true,
    maxAge: '365d',
    etag: false,
    lastModified: false,
    setHeaders: (res) => res.setHeader('X-Content-Type-Options', 'nosniff'),
  });
  router.use(EXPLORER_ASSETS_PATH, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    assets(req, res, () => {
      res.status(404).type('text/plain').send('404 Not Found');
    });
  });
  return router;
}
