import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** kafkajs's own module at `path`, loaded anew from its file, as if it had not been replaced. */
export function kafkajsOriginal<T>(path: string): T {
  const resolved = requireHere.resolve(path);
  const cached = requireHere.cache[resolved];
  delete requireHere.cache[resolved];
  try {
    return requireHere(resolved) as T;
  } finally {
    if (cached !== undefined) requireHere.cache[resolved] = cached;
  }
}
