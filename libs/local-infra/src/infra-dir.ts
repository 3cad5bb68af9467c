import { fileURLToPath } from 'node:url';

/** The repository's infra/ folder, holding the poms that fetch the local broker and registry. */
export const DEFAULT_INFRA_DIR = fileURLToPath(new URL('../../../infra/', import.meta.url));
