import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin } from 'kafkajs';

export type TopicWatermarks = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

/** The first wait between attempts; each next one doubles, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 25;
const MAX_BACKOFF_MS = 500;

/**
 * `admin.fetchTopicOffsets(topic)` (every partition's low and high watermark), tried again while the
 * broker answers with a retriable error, until `signal` aborts (then it rejects with the last error).
 *
 * kafkajs 2.2.4 retries only UNKNOWN_TOPIC_OR_PARTITION there and gives up at once on any other
 * error (src/admin/index.js, fetchTopicOffsets: `bail(e)`; the release is the last, so the fix
 * stays ours). On KRaft a topic created a moment ago answers ListOffsets with
 * NOT_LEADER_OR_FOLLOWER until its partitions' leadership has settled, even after a produce to
 * one of them succeeded: a context fetched right after its topic was made failed so one time in
 * twenty (test/context-store.test.ts, two test files at once).
 */
export async function fetchTopicWatermarks(admin: Admin, topic: string, signal: AbortSignal): Promise<TopicWatermarks> {
  for (let backoffMs = FIRST_BACKOFF_MS; ; backoffMs = Math.min(2 * backoffMs, MAX_BACKOFF_MS)) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (error) {
      if ((error as { retriable?: boolean }).retriable !== true || signal.aborted) throw error;
      await sleep(backoffMs, undefined, { signal }).catch(() => {
        throw error;
      });
    }
  }
}
