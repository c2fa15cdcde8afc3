// The entry of the built server (dist/main.js, see build.mjs): runs the bundle dist/server.cjs with
// V8's code cache of its start-up path. Node 20 has no module.enableCompileCache, and without a cache
// every start parses the whole bundle and compiles again each function that the start runs.
import { createHash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { accessSync, constants, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { started } from './started.js';

const dir = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(dir, 'server.cjs');

function runWithCodeCache() {
  const code = readFileSync(file);
  // V8 rejects a cache made under other flags: main.ts turns this one on for embedded PGlite (no
  // DATABASE_URL) once the bundle is compiled, before the cache is made; it must be on at compile time too.
  const embedded = !process.env.DATABASE_URL;
  if (embedded) v8.setFlagsFromString('--liftoff-only');
  // Named after the content (V8 only checks that a cache was made for a source of the same length) and
  // the flags, so that the two setups do not overwrite each other's cache.
  const hash = createHash('sha1').update(code).digest('hex').slice(0, 16);
  const cacheFile = path.join(dir, `server.cjs.${hash}${embedded ? '.liftoff' : ''}.cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // First start of this build: the cache is written once the server listens.
  }

  // CommonJS's own wrapper, on a line of its own so that positions in stack traces stay the file's.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {\n${code.toString('latin1')}\n})`,
    { filename: file, lineOffset: -1, cachedData },
  );

  /** Atomically, so that another instance starting meanwhile reads either no cache or a whole one. */
  const saveCache = () => {
    unsubscribe(started.name, saveCache);
    const partial = `${cacheFile}.${process.pid}`;
    try {
      accessSync(dir, constants.W_OK);
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, cacheFile);
    } catch {
      // A read-only dist only costs the cache.
      rmSync(partial, { force: true });
    }
  };
  if (!cachedData || script.cachedDataRejected) subscribe(started.name, saveCache);

  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
}

// Node maps stack traces to the sources (--enable-source-maps) only for what its module loader compiles.
if (process.sourceMapsEnabled) createRequire(import.meta.url)(file);
else runWithCodeCache();
