/// <reference types="vitest/config" />
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

// main.go embeds frontend/dist, so a committed dist/.gitkeep lets `go build`
// and `go vet` work on a fresh clone; emptyOutDir deletes it, so put it back.
function keepDist(): Plugin {
  return {
    name: 'warren-keep-dist',
    apply: 'build',
    closeBundle() {
      writeFileSync(resolve(import.meta.dirname, 'dist', '.gitkeep'), '');
    },
  };
}

export default defineConfig({
  plugins: [svelte(), svelteTesting(), keepDist()],
  // Relative asset URLs: the page is served by Wails' asset server (wails://
  // in the window, http://<devserver>/ in a browser), never from a sub-path.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
  test: {
    environment: 'jsdom',
    include: ['tests/**/*.test.ts'],
    // Generous limits: CI has two cores and runs the Go tests beside
    // vitest's workers; a test that hangs still fails, just later.
    testTimeout: 30_000,
    setupFiles: ['tests/setup.ts'],
  },
});
