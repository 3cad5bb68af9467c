import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onProcessExit } from './exit-guard.js';

export interface TempDir {
  path: string;
  remove(): Promise<void>;
}

/** A fresh directory in the OS temp folder, removed by `remove()` or, failing that, when this process exits. */
export async function makeTempDir(prefix: string): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  const forget = onProcessExit(() => rmSync(path, { recursive: true, force: true }));
  return {
    path,
    remove: async () => {
      forget();
      await rm(path, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
