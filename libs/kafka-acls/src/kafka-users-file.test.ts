import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serviceAcls } from './service-acls.js';
import { strimziKafkaUsers } from './strimzi-users.js';
import { batonTopology } from './topology.js';

const FILE = fileURLToPath(new URL('../../../infra/k8s/base/kafka-users.yaml', import.meta.url));

describe('infra/k8s/base/kafka-users.yaml', () => {
  it('is what `baton acls --format strimzi` prints, below its header', () => {
    const text = readFileSync(FILE, 'utf8');
    const generated = text.slice(text.indexOf('---\n'));
    const expected = strimziKafkaUsers(serviceAcls(batonTopology(), { prefix: 'baton' }), {
      cluster: 'baton',
      authentication: 'scram-sha-512',
    });
    expect(generated, 'regenerate it: npx baton acls --format strimzi (keep the header)').toBe(expected);
    expect(text.slice(0, text.indexOf('---\n'))).toMatch(/^(#.*\n)+$/);
  });
});
