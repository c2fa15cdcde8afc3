// Compiles the server ahead of time for `npm start`. dist/server.cjs is the server with its
// dependencies bundled in: Node then reads one file instead of resolving, reading and compiling
// thousands. dist/main.js (src/platform/startup/launch.ts) runs it with V8's code cache, which Node 20
// offers only to classic scripts: hence CommonJS.
import { isAscii } from 'node:buffer';
import { cp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const root = new URL('.', import.meta.url);
const out = new URL('dist/', root);
const outDir = out.pathname;

/** Packages left to Node at run time: they find native binaries, wasm or data files next to their own code. */
const EXTERNAL = ['@electric-sql/pglite', 'sharp', '@node-rs/argon2'];
/** ESM-only packages left to Node: loaded with require(), they need their default export mapped (below). */
const EXTERNAL_ESM = ['@whiskeysockets/baileys'];
const ofPackage = (specifier, names) => names.some((name) => specifier === name || specifier.startsWith(`${name}/`));

const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      // What the server's own code imports on demand (S3, XLSX, Redis…) is still loaded by Node when first needed.
      const ownCode = !args.importer.includes('/node_modules/');
      if ((ownCode && args.kind === 'dynamic-import') || ofPackage(args.path, EXTERNAL)) return { external: true };
      if (ofPackage(args.path, EXTERNAL_ESM))
        return args.namespace === 'esm-external' ? { external: true } : { path: args.path, namespace: 'esm-external' };
      return undefined;
    });
    // Imported from our "type": "module" files, esbuild would take the whole namespace that require(esm)
    // returns for the default export. Re-exported by this module, outside any package, it takes the
    // namespace's `default`, which Node flags with __esModule.
    b.onLoad({ filter: /.*/, namespace: 'esm-external' }, (args) => {
      const name = JSON.stringify(args.path);
      return { contents: `export * from ${name}; export { default } from ${name};`, loader: 'js' };
    });
  },
};

/**
 * Bundled CommonJS files that read files next to themselves (Swagger UI's assets, the Socket.IO client
 * it serves) get their own `__dirname` back: their folder in node_modules, relative to the bundle.
 */
const ownDirname = {
  name: 'own-dirname',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(source)) return undefined;
      const rel = (to) => JSON.stringify(path.relative(outDir, to));
      const prologue =
        `var __dirname = require("node:path").join(__bundleDir, ${rel(path.dirname(args.path))}),` +
        ` __filename = require("node:path").join(__bundleDir, ${rel(args.path)});`;
      // After a "use strict" directive, which must stay first to keep the file strict.
      const [directive] = /^(\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*(['"])use strict\3;?/.exec(source) ?? [''];
      const contents = `${directive && `${directive};`}${prologue}${source.slice(directive.length)}`;
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/** Both outputs: one file each, for this Node. */
const bundle = (entry, outfile, options) =>
  build({
    entryPoints: [new URL(entry, root).pathname],
    outfile: new URL(outfile, out).pathname,
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    ...options,
  });

await rm(out, { recursive: true, force: true });
await bundle('src/main.ts', 'server.cjs', {
  format: 'cjs',
  // Less to read and parse on a start without code cache. Identifiers stay, for stack traces, and so do
  // the names that bundling would suffix (`DatabaseError2`), which logs show as errors' types.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: 'external',
  sourcemap: true,
  banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href, __bundleDir = __dirname;' },
  define: { 'import.meta.url': '__importMetaUrl' },
  // import() in a vm.Script (launch.ts) needs an experimental loader hook: what is loaded on demand is
  // required instead (the packages' CommonJS builds).
  supported: { 'dynamic-import': false },
  plugins: [externals, ownDirname],
});
// launch.ts reads the bundle as Latin-1 (half the cost of UTF-8): esbuild escapes any other character.
if (!isAscii(await readFile(new URL('server.cjs', out)))) throw new Error('dist/server.cjs is not ASCII');
await bundle('src/platform/startup/launch.ts', 'main.js', { format: 'esm' });
// The migrator reads them next to the code (`./migrations` from db/client.ts, bundled into server.cjs).
await cp(new URL('src/db/migrations', root), new URL('migrations', out), { recursive: true });
