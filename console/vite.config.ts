// The console's build (issue 28, point 7): Vite with React, into .build/console, which the service
// serves at /console (src/http/console.ts). Every page past the first is a chunk of its own
// (React.lazy in src/routes.tsx), so the first page loads only the shell and the sign-in form.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const outDir = fileURLToPath(new URL('../.build/console', import.meta.url));

/**
 * Brotli and gzip copies of every text file, made once at build time: the service sends them to
 * browsers that accept them (@fastify/static's preCompressed), so no answer is compressed per request.
 */
function precompress(): Plugin {
  return {
    name: 'svc-precompress',
    apply: 'build',
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(js|css|html|svg|json)$/.test(entry.name)) continue;
        const file = join(entry.parentPath, entry.name);
        const body = readFileSync(file);
        const brotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };
        writeFileSync(`${file}.br`, brotliCompressSync(body, brotli));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // The service answers these files with a long cache lifetime: their names carry a hash.
    assetsDir: 'assets',
    // What counts is the first page's gzip size, held under 500 KB by test/console/build.test.ts.
    chunkSizeWarningLimit: 800,
    reportCompressedSize: false,
  },
  server: {
    // `npm run console:dev`: the API of a service started with `npm start` on port 8080.
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
