import { expect, test } from 'vitest';
import { provisionInfrastructure } from './provision.js';

test('a secured local broker is refused when KAFKA_BROKERS names a cluster, before anything starts', async () => {
  const progress: string[] = [];
  await expect(
    provisionInfrastructure({
      securedKafka: true,
      env: { KAFKA_BROKERS: 'kafka.example:9092', SCHEMA_REGISTRY_URL: 'http://registry.example:8081' },
      onProgress: (line) => progress.push(line),
    }),
  ).rejects.toMatchObject({
    code: 'CONFIG_INVALID',
    path: '/env/KAFKA_BROKERS',
    message:
      'a secured local broker was asked for, but KAFKA_BROKERS names a cluster: unset it, or connect to that cluster securely with KAFKA_SECURITY_PROTOCOL and the other KAFKA_* variables',
  });
  expect(progress).toEqual([]);
});
