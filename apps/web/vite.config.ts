import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
  plugins: [react(), devEnvScript()],
  server: { port: 3000, strictPort: true },
  preview: { port: 3000, strictPort: true },
  build: {
    outDir: `${root}/dist`,
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: their own chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'mui', test: /node_modules[\\/]@(mui|emotion)[\\/]/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            // zod with its configuration (jitless, for the CSP): set before any chunk defines a schema.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]|[\\/]src[\\/]zodConfig\.ts$/ },
          ],
        },
      },
    },
  },
});
