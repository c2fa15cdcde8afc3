import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './build/precompress';

const root = import.meta.dirname;

/**
 * In `vite dev` nothing serves the server's `/env.js`; answer it here so the client sees the
 * same `window.__ENV__` it gets in production. `BACKEND_URL` overrides the default.
 */
function devEnvScript(): Plugin {
  return {
    name: 'balcao-dev-env',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/env.js', (_req, res) => {
        const env = { BACKEND_URL: process.env.BACKEND_URL ?? 'http://localhost:8080' };
        res.setHeader('Content-Type', 'application/javascript');
        res.end(`window.__ENV__ = ${JSON.stringify(env)};`);
      });
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), devEnvScript(), precompress()],
  server: { port: 3000, strictPort: true },
  preview: { port: 3000, strictPort: true },
  build: {
    outDir: `${root}/dist`,
    emptyOutDir: true,
    // bench/src/web.ts reads it to tell the chunks loaded up front from the lazy ones.
    manifest: true,
    rolldownOptions: {
      // @balcao/shared's barrel defines every zod schema at module level: without this, importing a
      // constant from it would pull zod and all the schemas into the first chunk.
      treeshake: { moduleSideEffects: [{ test: /[\\/]packages[\\/]shared[\\/]/, sideEffects: false }] },
      output: {
        // React changes less often than the app: its own chunk stays cached across releases. MUI and
        // zod follow the screens that use them: a chunk of their own would load all of each up front.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
});
