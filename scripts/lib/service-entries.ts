import { readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The entry point of the service `name`: services/<name>/src/main.ts. */
export function serviceEntry(name: string): string {
  return `services/${name}/src/main.ts`;
}

/** Every folder of services/ with a src/main.ts is a service; nothing else needs to list them. */
export async function discoverServices(): Promise<string[]> {
  const names = await readdir(`${ROOT}services`);
  const found: string[] = [];
  for (const name of names.sort()) {
    const entry = `${ROOT}${serviceEntry(name)}`;
    if (
      await stat(entry).then(
        () => true,
        () => false,
      )
    )
      found.push(name);
  }
  return found;
}
