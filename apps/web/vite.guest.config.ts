import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';
import { stripContractDescriptions } from './vite-strip-describe.ts';

/**
 * The guest build: `guest.html` → album, kiosk, slide-show and web-app pages, built on
 * its own after the console build (`vite.config.ts`) into the same `dist`. A separate build is
 * tree-shaken on its own: the guest bundle holds only the contract's guest endpoints and the
 * guest texts, never modules it would otherwise share with the console.
 */
export default defineConfig({
  plugins: [react(), precompress(), stripContractDescriptions()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: { guest: 'guest.html' },
      // The contract builds endpoints and zod schemas at module level; none has an effect beyond
      // its value, so those the guest pages never call are dropped.
      treeshake: {
        manualPureFunctions: ['defineEndpoint', 'z', 'hardenInput'],
        propertyReadSideEffects: false,
      },
      output: {
        entryFileNames: 'assets/guest-[hash].js',
        chunkFileNames: 'assets/guest-[name]-[hash].js',
        // Fonts and images: the same names as the console build's, so one cached copy serves both.
        assetFileNames: 'assets/[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            // The QR code library: only the slide show and the kiosk pages draw codes (lazy chunks).
            { name: 'qrcode', test: /node_modules[\\/](qrcode|dijkstrajs|pngjs)[\\/]/ },
            // What the album's first load runs, in two files rather than one per shared module:
            // every script costs a request and its headers (about 1 KB) on a slow phone network.
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/ },
            { name: 'app', tags: ['$initial'] },
            { name: 'vendor-lazy', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
});
