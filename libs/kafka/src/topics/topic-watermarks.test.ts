import type { Admin } from 'kafkajs';
import { describe, expect, test } from 'vitest';
import { fetchTopicWatermarks, type TopicWatermarks } from './topic-watermarks.js';

const WATERMARKS: TopicWatermarks = [{ partition: 0, offset: '5', high: '5', low: '0' }];

/** An admin client whose fetchTopicOffsets answers with `answers` in turn, counting the calls. */
function adminAnswering(...answers: (Error | TopicWatermarks)[]): { admin: Admin; calls: () => number } {
  let calls = 0;
  const admin = {
    fetchTopicOffsets: () => {
      const answer = answers[Math.min(calls, answers.length - 1)] as Error | TopicWatermarks;
      calls += 1;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  } as unknown as Admin;
  return { admin, calls: () => calls };
}

function protocolError(type: string, retriable: boolean): Error {
  return Object.assign(new Error(type), { type, retriable });
}

describe('fetchTopicWatermarks', () => {
  test('tries again while the broker answers NOT_LEADER_FOR_PARTITION, and returns the watermarks', async () => {
    const notLeader = protocolError('NOT_LEADER_FOR_PARTITION', true);
    const { admin, calls } = adminAnswering(notLeader, notLeader, WATERMARKS);

    await expect(fetchTopicWatermarks(admin, 'topic', AbortSignal.timeout(5_000))).resolves.toEqual(WATERMARKS);
    expect(calls()).toBe(3);
  });

  test('gives up at once on an error that is not retriable', async () => {
    const denied = protocolError('TOPIC_AUTHORIZATION_FAILED', false);
    const { admin, calls } = adminAnswering(denied, WATERMARKS);

    await expect(fetchTopicWatermarks(admin, 'topic', AbortSignal.timeout(5_000))).rejects.toBe(denied);
    expect(calls()).toBe(1);
  });

  test('rejects with the last error once the signal aborts, and asks no more', async () => {
    const notLeader = protocolError('NOT_LEADER_FOR_PARTITION', true);
    const { admin, calls } = adminAnswering(notLeader);
    const deadline = new AbortController();
    const asking = admin.fetchTopicOffsets.bind(admin);
    // The deadline passes during the third request.
    admin.fetchTopicOffsets = (topic) => {
      if (calls() === 2) deadline.abort();
      return asking(topic);
    };

    await expect(fetchTopicWatermarks(admin, 'topic', deadline.signal)).rejects.toBe(notLeader);
    expect(calls()).toBe(3);
  });

  test('rejects with the last error when the signal aborts during the wait between attempts', async () => {
    const notLeader = protocolError('NOT_LEADER_FOR_PARTITION', true);
    const { admin, calls } = adminAnswering(notLeader, WATERMARKS);

    await expect(fetchTopicWatermarks(admin, 'topic', AbortSignal.timeout(1))).rejects.toBe(notLeader);
    expect(calls()).toBe(1);
  });
});
