import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { StartedKafka } from '@baton/local-infra';
import {
  GATEWAY_TOKENS,
  startOwnBroker,
  startServiceProcess,
  uniqueName,
  type ServiceProcess,
} from './helpers/index.js';

let broker: StartedKafka;
let gateway: ServiceProcess;

function publish(taskId: string): Promise<Response> {
  return fetch(`${gateway.address}/v1/handoffs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${GATEWAY_TOKENS.publisher}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      metadata: { sender_id: 'ops_console', recipient_id: 'probe_agent', task_id: taskId },
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS' } },
    }),
  });
}

beforeAll(async () => {
  // A broker of this test's own: it is stopped mid-test, which the shared one must never be.
  broker = await startOwnBroker();
  gateway = await startServiceProcess('services/gateway/src/main.ts', {
    KAFKA_BROKERS: broker.brokers.join(','),
    SCHEMA_REGISTRY_URL: inject('schemaRegistryUrl'),
    BATON_TOPIC_PREFIX: uniqueName('outage'),
    BATON_PARTITIONS: '1',
    BATON_INSTANCE_ID: 'outage-gateway',
    BATON_API_KEYS: `pub:${GATEWAY_TOKENS.publisher}:publisher`,
    BATON_PUBLISH_TIMEOUT_MS: '3000',
  });
}, 180_000);

afterAll(async () => {
  await gateway?.stop('SIGKILL');
  await broker?.stop();
});

it('answers 503 with Retry-After, never 202, while Kafka is unreachable, and stays alive', async () => {
  const before = await publish(uniqueName('task'));
  expect(before.status).toBe(202);

  await broker.stop();
  const during = await publish(uniqueName('task'));
  expect(during.status).toBe(503);
  expect(during.headers.get('retry-after')).toBe('5');
  expect(await during.json()).toMatchObject({ error: { code: 'KAFKA_UNAVAILABLE' } });

  // The process is alive and says so; a second attempt is refused the same way.
  const health = await fetch(`${gateway.address}/healthz`);
  expect(health.status).toBe(200);
  const again = await publish(uniqueName('task'));
  expect(again.status).toBe(503);
  expect(gateway.child.exitCode).toBeNull();
}, 120_000);
