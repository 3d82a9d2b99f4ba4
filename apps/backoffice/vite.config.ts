import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `vite` and `vite preview` send API calls during development (the broker server). */
const apiTarget = process.env.BROKER_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    port: 5174,
    proxy: { '/api': { target: apiTarget } },
  },
  preview: {
    port: 4174,
    proxy: { '/api': { target: apiTarget } },
  },
});
