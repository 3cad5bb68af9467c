import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the raw kafkajs helper', () => {
  // `npm run chaos` imports it under tsx, with Node's own ES module loader, which finds no named
  // export of a CommonJS package's that its lexer cannot see; vitest's transform hid that once.
  it("loads as npm run chaos loads it, outside vitest, with kafkajs's ACL enums", () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const m = await import('./test/helpers/raw-kafkajs.ts'); process.stdout.write(JSON.stringify([m.AclOperationTypes.READ, m.AclPermissionTypes.ALLOW, m.AclResourceTypes.TOPIC, m.ResourcePatternTypes.LITERAL, typeof m.rawKafkajs]));",
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toStrictEqual([3, 3, 2, 3, 'function']);
  });
});
