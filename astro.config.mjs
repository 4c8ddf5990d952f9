// @ts-check
import { defineConfig } from 'astro/config';

export default defineConfig({
  srcDir: './site',
  // The workers import the SDK as ES modules; Vite bundles them per worker.
  vite: {
    worker: { format: 'es' },
  },
  server: { host: 'localhost', port: 4321 },
});
