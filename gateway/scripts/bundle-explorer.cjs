#!/usr/bin/env node
// Bundles the GraphQL explorer (gateway/explorer: GraphiQL, React and the page's own code) with
// esbuild into gateway/dist/explorer, after tsc (the package's `build` script):
//   dist/explorer/index.html        the page gateway/src/explorer.ts serves at GET /graphql
//   dist/explorer/assets/*          script, stylesheet, fonts and images, content-hashed names,
//                                   served at /graphql/explorer/ with long cache headers
// Nothing is fetched at run time from anywhere but the gateway: GraphiQL's stylesheet inlines its
// fonts and images as data: URLs, which the page's Content-Security-Policy refuses (fonts and
// images from 'self' only), so they are written out as files of their own here.
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { basename, join, relative, resolve } = require('node:path');
const esbuild = require('esbuild');

const gateway = resolve(__dirname, '..');
const source = join(gateway, 'explorer');
const out = join(gateway, 'dist', 'explorer');
const assets = join(out, 'assets');
/** Where gateway/src/explorer.ts serves `assets` (EXPLORER_ASSETS_PATH below /graphql). */
const ASSETS_URL = '/graphql/explorer/';

const EXTENSIONS = {
  'font/woff2': 'woff2',
  'font/woff': 'woff',
  'font/ttf': 'ttf',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};
const DATA_URL = /url\((["']?)data:([\w.+/-]+);base64,([A-Za-z0-9+/=]+)\1\)/g;
const INLINE = '__inline__/';

/** Turns every base64 data: URL of an imported stylesheet into a file esbuild emits as an asset. */
const dataUrlsToFiles = {
  name: 'data-urls-to-files',
  setup(build) {
    const files = new Map();
    build.onLoad({ filter: /\.css$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const contents = text.replace(DATA_URL, (_, _quote, mime, data) => {
        const extension = EXTENSIONS[mime];
        if (!extension) throw new Error(`${args.path}: a data: URL of type ${mime}, which this script cannot name`);
        const bytes = Buffer.from(data, 'base64');
        const kind = mime.startsWith('font/') ? 'font' : 'image';
        const path = `${INLINE}${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}/${kind}.${extension}`;
        files.set(path, bytes);
        return `url(./${path})`;
      });
      return { contents, loader: 'css' };
    });
    build.onResolve({ filter: new RegExp(`^\\./${INLINE}`) }, (args) => ({
      path: args.path.slice(2),
      namespace: 'inline-data',
    }));
    build.onLoad({ filter: /.*/, namespace: 'inline-data' }, (args) => ({
      contents: files.get(args.path),
      loader: 'file',
    }));
  },
};

const page = ({ script, style }) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>GraphQL explorer · v3hub</title>
    <link rel="stylesheet" href="${ASSETS_URL}${style}" />
    <script defer src="${ASSETS_URL}${script}"></script>
  </head>
  <body>
    <noscript>The GraphQL explorer needs JavaScript. Without it, POST queries to this URL.</noscript>
    <div id="explorer"></div>
  </body>
</html>
`;

async function main() {
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: gateway,
    entryPoints: { explorer: join(source, 'main.tsx') },
    outdir: assets,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    // One script: GraphiQL's lazy imports (CodeMirror's modes and addons) are bundled into it.
    format: 'iife',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    tsconfig: join(source, 'tsconfig.json'),
    plugins: [dataUrlsToFiles],
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => resolve(gateway, path));
  const named = (suffix) => {
    const found = outputs.filter((path) => path.endsWith(suffix));
    if (found.length !== 1) throw new Error(`expected one ${suffix} output, got ${found.join(', ') || 'none'}`);
    return found[0];
  };
  const script = named('.js');
  const style = named('.css');
  // What the CSP would refuse, or a page would fetch from elsewhere, fails the build here.
  const css = readFileSync(style, 'utf8');
  if (/url\(\s*["']?(data:|https?:|\/\/)/.test(css) || /@import/.test(css))
    throw new Error(`${relative(gateway, style)} still loads a data: URL, another site or an @import`);
  writeFileSync(join(out, 'index.html'), page({ script: basename(script), style: basename(style) }));

  const kib = (path) => `${(statSync(path).size / 1024).toFixed(0)} KiB`;
  const fonts = outputs.filter((path) => /\.(woff2?|ttf)$/.test(path));
  const total = outputs.reduce((sum, path) => sum + statSync(path).size, 0);
  console.log(
    `explorer bundled in ${Date.now() - started} ms into ${relative(gateway, out)}: ${basename(script)} ${kib(script)}, ` +
      `${basename(style)} ${kib(style)}, ${fonts.length} fonts, ${outputs.length} files, ${(total / 1024).toFixed(0)} KiB in all`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
