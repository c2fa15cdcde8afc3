import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['apps/server/vitest.config.ts', 'apps/web/vitest.config.ts'],
    // Two cores: PGlite instances are heavy, so never more than two test files at once.
    maxWorkers: 2,
  },
});
