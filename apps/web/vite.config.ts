import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';
import { stripContractDescriptions } from './vite-strip-describe.ts';

export default defineConfig({
  plugins: [react(), precompress(), stripContractDescriptions()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's CSP is `default-src 'self'`: keep every asset a separate file, never inlined as data: scripts.
    assetsInlineLimit: 0,
    rolldownOptions: {
      // The shared contract builds its zod schemas at module level; building one has no effect
      // beyond its value, so schemas (and endpoint definitions) a page never uses are dropped
      // (the album's first load stays under 150 KB).
      treeshake: {
        manualPureFunctions: ['z', 'defineEndpoint'],
        propertyReadSideEffects: false,
      },
      output: {
        // Libraries change less often than our code: separate chunks stay cached across releases,
        // and the later album/kiosk entry points can share React without pulling in Mantine.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            // Console-only libraries: guest pages (albums-root) never load these chunks.
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/ },
            { name: 'qrcode', test: /node_modules[\\/](qrcode|dijkstrajs|pngjs)[\\/]/ },
            { name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
    },
  },
});
