import { createKafka, deleteTopics, kafkaSecurityFromEnv } from '@baton/kafka';

/**
 * Deletes the topics a bench run made under `prefix` (`<prefix>.*`, and `<prefix>-<part>.*` of the
 * rows that use topics of their own), so a run leaves nothing behind on a shared cluster, and the
 * broker carries only the topics of what is measured next (the idle row's fleet). Best effort: a
 * failure is reported, not thrown.
 */
export async function deleteRunTopics(
  brokers: readonly string[],
  prefix: string,
  progress: (text: string) => void,
): Promise<void> {
  const kafka = createKafka({
    brokers: [...brokers],
    clientId: `${prefix}-cleanup`,
    security: kafkaSecurityFromEnv(process.env),
    logLevel: 'nothing',
  });
  try {
    const deleted = await deleteTopics(
      kafka,
      (topic) => topic.startsWith(`${prefix}.`) || topic.startsWith(`${prefix}-`),
    );
    progress(`deleted the ${deleted.length} topics of ${prefix}`);
  } catch (error) {
    progress(`could not delete the topics of ${prefix}: ${(error as Error).message}`);
  }
}
