import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The web app is served by the API server at /app (see src/webapp); `npm run build:web` writes web/dist. */
export default defineConfig({
  root,
  base: '/app/',
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080', '/app/session': 'http://127.0.0.1:8080' } },
});
