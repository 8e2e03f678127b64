// esbuild bundles imported stylesheets into the page's one .css file (gateway/scripts/bundle-explorer.cjs).
declare module '*.css';
