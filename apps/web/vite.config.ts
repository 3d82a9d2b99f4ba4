import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { FONT_ENTRIES } from './src/fonts/fonts';

/**
 * The @fontsource stylesheets name a WOFF2 file and a WOFF fallback for each face; every browser the
 * portal supports reads WOFF2, so the fallback is dropped (a PostCSS step, after the imports are
 * inlined) and its files are not shipped.
 */
const woff2Only = {
  postcssPlugin: 'broker-woff2-only',
  Declaration: {
    src(decl: { value: string; parent?: { type: string; name?: string } }) {
      decl.value = decl.value.replace(/,\s*url\([^)]*\.woff\)\s*format\(['"]woff['"]\)/g, '');
    },
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  css: { postcss: { plugins: [woff2Only] } },
  publicDir: 'public',
  // With MINIFY=0 the chart library's development build is bundled too, for its names in a profile.
  resolve:
    process.env.MINIFY === '0' && !isSsrBuild
      ? {
          alias: {
            'lightweight-charts': fileURLToPath(
              new URL(
                '../../node_modules/lightweight-charts/dist/lightweight-charts.development.mjs',
                import.meta.url,
              ),
            ),
          },
        }
      : {},
  build: {
    // SOURCEMAP=1 for profiling a build (the maps stay out of production builds).
    sourcemap: process.env.SOURCEMAP === '1',
    // MINIFY=0 keeps the functions' names, for reading a CPU profile (bench/RESULTS.md).
    minify: process.env.MINIFY !== '0',
    manifest: !isSsrBuild,
    target: 'es2022',
    // The font stylesheets are entries of their own: the server links one per page language.
    rollupOptions: isSsrBuild
      ? { output: { entryFileNames: 'entry-server.js' } }
      : { input: ['index.html', ...Object.values(FONT_ENTRIES)] },
  },
  ssr: { noExternal: isSsrBuild ? [/^@broker\//] : [] },
}));
