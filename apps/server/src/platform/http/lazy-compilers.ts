import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Selector = (...args: unknown[]) => unknown;

// Fastify's own copies of its default compilers.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/** The selector a compiler package exports, required on first use; the selector caches what it builds. */
function onFirstUse(name: string): Selector {
  let selector: Selector | undefined;
  return (...args) => {
    selector ??= (fromFastify(name) as () => Selector)();
    return selector(...args);
  };
}

/**
 * Fastify builds its default compilers (Ajv, fast-json-stringify) with every instance, although the
 * routes validate and serialize with zod: these load them only if a JSON-schema route ever needs one.
 */
export const lazyCompilers = {
  buildValidator: onFirstUse('@fastify/ajv-compiler'),
  buildSerializer: onFirstUse('@fastify/fast-json-stringify-compiler'),
} as CompilersFactory;
