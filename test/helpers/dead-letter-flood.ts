import { inject } from 'vitest';
import { createKafka, RecordProducer } from '@baton/kafka';
import { GATEWAY_TOKENS, type GatewayRig } from './gateway-rig.js';
import { uniqueName } from './unique-name.js';
import { waitFor } from './wait-for.js';

/**
 * Fills the router's DLQ with `count` dead letters, as a flood of unreadable records would: one
 * record the router cannot read is dead-lettered for real, and copies of its dead letter (its
 * headers, each its own task) are written after it. Resolves once the gateway has read them all,
 * with the DLQ topic's name.
 */
export async function floodRouterDeadLetters(gateway: GatewayRig, count: number): Promise<string> {
  const { topics } = gateway.rig;
  const routerDlq = `${topics.inbound}.dlq`;
  const viewer = { token: GATEWAY_TOKENS.viewer };
  const dlqCount = async (): Promise<number> =>
    (await gateway.api('GET', '/v1/dlq', viewer)).body.topics.find(
      (topic: { topic: string }) => topic.topic === routerDlq,
    )?.count ?? 0;
  const producer = new RecordProducer(createKafka({ brokers: inject('kafkaBrokers'), clientId: uniqueName('flood') }));
  try {
    const garbage = uniqueName('garbage');
    await producer.send([{ topic: topics.inbound, key: garbage, value: Buffer.from('not avro') }]);
    const model = await waitFor(
      async () =>
        (await gateway.api('GET', `/v1/dead-letters?agent=router&task_id=${garbage}`, viewer)).body.messages[0],
      { description: "the router's dead letter of an unreadable record" },
    );
    const before = await dlqCount();
    const { headers } = (await gateway.api('GET', `/v1/dlq/${routerDlq}/messages/${model.id}`, viewer)).body;
    for (let start = 0; start < count; start += 1_000) {
      await producer.send(
        Array.from({ length: Math.min(1_000, count - start) }, (_, index) => ({
          topic: routerDlq,
          key: `flood-${start + index}`,
          value: Buffer.from('not avro'),
          headers,
        })),
      );
    }
    await waitFor(async () => (await dlqCount()) === before + count, {
      description: `${count} more dead letters read by the gateway`,
      timeoutMs: 60_000,
    });
  } finally {
    await producer.disconnect();
  }
  return routerDlq;
}
