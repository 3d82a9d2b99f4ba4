import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  publicDir: 'public',
  build: {
    sourcemap: false,
    manifest: !isSsrBuild,
    target: 'es2022',
    rollupOptions: isSsrBuild ? { output: { entryFileNames: 'entry-server.js' } } : { input: 'index.html' },
  },
  ssr: { noExternal: isSsrBuild ? [/^@broker\//] : [] },
}));
