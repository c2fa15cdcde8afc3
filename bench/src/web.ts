import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Issue 16's web target: the JavaScript a first visit downloads before the app renders. */
const TARGET_KB = 250;

const dist = fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));

/** One entry of Vite's `.vite/manifest.json` (the fields read here). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export interface WebFigures {
  /** Gzip size in bytes of the entry chunk and every chunk it statically imports, transitively. */
  initialJsGzip: number;
  initialFiles: string[];
  /** Gzip size in bytes of every JavaScript file of the build. */
  totalJsGzip: number;
}

const gzipSize = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;

/** The files the entry HTML loads up front: its entries and their static imports (not dynamic ones). */
function initialFiles(manifest: Record<string, ManifestChunk>): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...seen].map((key) => manifest[key].file);
}

/** Reads the existing build (it builds nothing itself) and prints the initial and total JS, gzipped. */
export async function benchWeb(): Promise<WebFigures> {
  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`Web client not built: ${manifestPath} is missing (run npm run build first)`);
  }
  const manifest: Record<string, ManifestChunk> = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const initial = initialFiles(manifest);
  const initialJsGzip = initial.reduce((sum, file) => sum + gzipSize(file), 0);
  const allJs = readdirSync(path.join(dist, 'assets')).filter((name) => name.endsWith('.js'));
  const totalJsGzip = allJs.reduce((sum, name) => sum + gzipSize(`assets/${name}`), 0);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(
    `web initial JS (gzip)              ${kb(initialJsGzip).padStart(7)} KB in ${initial.length} files   (target ≤ ${TARGET_KB} KB)`,
  );
  console.log(`web total JS (gzip)                ${kb(totalJsGzip).padStart(7)} KB in ${allJs.length} files`);
  if (process.env.BENCH_FILES) for (const file of initial) console.log(`${kb(gzipSize(file)).padStart(8)} KB  ${file}`);
  return { initialJsGzip, initialFiles: initial, totalJsGzip };
}

const isMain = process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (isMain) await benchWeb();
