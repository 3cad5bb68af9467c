import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kafkaAclsCommands } from './kafka-acls-commands.js';
import { serviceAcls } from './service-acls.js';
import { batonTopology } from './topology.js';

const FILE = fileURLToPath(new URL('../../../infra/compose/kafka-acls.txt', import.meta.url));

describe('infra/compose/kafka-acls.txt', () => {
  it('is what `baton acls --bootstrap-server 127.0.0.1:9095` prints, below its header', () => {
    const lines = readFileSync(FILE, 'utf8').trimEnd().split('\n');
    const header = lines.filter((line) => line.startsWith('#'));
    expect(lines.slice(0, header.length)).toEqual(header);
    const expected = kafkaAclsCommands(serviceAcls(batonTopology(), { prefix: 'baton' }), {
      bootstrapServer: '127.0.0.1:9095',
    });
    expect(lines.slice(header.length), 'regenerate it: npx baton acls --bootstrap-server 127.0.0.1:9095').toEqual(
      expected,
    );
  });
});
