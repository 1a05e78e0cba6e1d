import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest)$/;

/**
 * Writes `<asset>.br` and `<asset>.gz` beside every built script and style sheet, once at build
 * time at the best levels; the server (`@fastify/static` with `preCompressed`) sends the one the
 * browser accepts, so guests download compressed JS without the server compressing per request.
 */
export const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'flashbulb-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const assets = path.join(outDir, 'assets');
      for (const name of await readdir(assets)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const file = path.join(assets, name);
        const body = await readFile(file);
        await writeFile(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
};
