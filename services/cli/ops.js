#!/usr/bin/env node
// The `ops` executable (package.json "bin"): registers tsx's ESM loader, then runs the
// TypeScript CLI. Plain JavaScript so it works through npx and npm scripts alike.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });

// `ops … | head` closes the pipe early; that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const { run } = await import('./main.ts');
process.exitCode = await run(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr });
