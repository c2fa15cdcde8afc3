// Compiles the server ahead of time for `npm start`: one ESM file, so the start does not pay for
// transpiling TypeScript. Dependencies stay in node_modules (native modules, wasm and worker files
// are found relative to their own packages); the workspace packages are TypeScript and are bundled.
import { cp, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const root = new URL('.', import.meta.url);
const out = new URL('dist/', root);

/** Every bare import is left to Node at run time, except the workspace's own packages. */
const dependenciesExternal = {
  name: 'dependencies-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@balcao/') ? undefined : { external: true }));
  },
};

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: [new URL('src/main.ts', root).pathname],
  outdir: out.pathname,
  bundle: true,
  // Code loaded on demand (the Baileys channel) goes to its own chunk, with its imports.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [dependenciesExternal],
});
// The migrator reads them next to the code (`./migrations` from db/client.ts, bundled into main.js).
await cp(new URL('src/db/migrations', root), new URL('migrations', out), { recursive: true });
