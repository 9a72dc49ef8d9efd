/**
 * Entry of a judging thread (judge-pool.ts). In dist/ the thread's module is built JavaScript; run
 * from the sources (the project's own tests) it is TypeScript, loaded through tsx.
 */
import { existsSync } from 'node:fs';

const built = new URL('./judge-thread.js', import.meta.url);
if (existsSync(built)) await import(built.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./judge-thread.ts', import.meta.url).href);
}
