import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimelineEvent, UserReply } from '@baton/gateway-api';
import { TaskFeed } from './task-feed.js';
import { TaskStreams } from './task-streams.js';

function step(message_id: string): TimelineEvent {
  return {
    kind: 'outcome',
    time: '2026-11-24T10:00:00.000Z',
    message_id,
    handoff_type: 'TASK_TRANSFER',
    agent_id: 'router',
    outcome: 'ROUTED',
  };
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose every request is served a stream of task t1 from its Last-Event-ID. */
async function serveStreams(streams: TaskStreams): Promise<string> {
  const { streamPositionOf } = await import('./task-stream.js');
  server = createServer((request, response) =>
    streams.serve('t1', streamPositionOf(request.headers['last-event-id'] as string | undefined), response),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}/`;
}

/** Reads the stream until `until` holds of the text read so far. */
async function readUntil(body: ReadableStream<Uint8Array>, until: (text: string) => boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

const ids = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((match) => match[1]);

describe('TaskStreams', () => {
  it('sends what the task holds, then each change the feed announces, and ends all streams on close', async () => {
    const steps: TimelineEvent[] = [step('s1')];
    const replies: UserReply[] = [];
    const feed = new TaskFeed();
    const streams = new TaskStreams({ steps: () => steps, replies: () => replies }, feed, 60_000);
    const url = await serveStreams(streams);

    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const body = response.body as ReadableStream<Uint8Array>;
    expect(ids(await readUntil(body, (text) => ids(text).length === 1))).toEqual(['1.0']);

    steps.push(step('s2'));
    replies.push({ kind: 'reply', time: '2026-11-24T10:00:01.000Z', message_id: 'r1', agent_id: 'a', message: 'Hi' });
    feed.changed('t1');
    feed.changed('t1');
    expect(ids(await readUntil(body, (text) => ids(text).length === 2))).toEqual(['2.0', '2.1']);
    expect([streams.size, feed.watchedTasks]).toEqual([1, 1]);

    streams.closeAll();
    await readUntil(body, () => false);
    await expect.poll(() => [streams.size, feed.watchedTasks]).toEqual([0, 0]);
  });

  it('resumes after the Last-Event-ID a reconnecting client sends', async () => {
    const steps = [step('s1'), step('s2'), step('s3')];
    const streams = new TaskStreams({ steps: () => steps, replies: () => [] }, new TaskFeed(), 60_000);
    const url = await serveStreams(streams);
    const response = await fetch(url, { headers: { 'last-event-id': '1.0' } });
    const text = await readUntil(response.body as ReadableStream<Uint8Array>, (read) => ids(read).length === 2);
    expect(ids(text)).toEqual(['2.0', '3.0']);
    streams.closeAll();
  });

  it("closes a stream's connection with it, so a server closing as streams end does not wait for keep-alive", async () => {
    const streams = new TaskStreams({ steps: () => [step('s1')], replies: () => [] }, new TaskFeed(), 60_000);
    const url = await serveStreams(streams);
    // Longer than the test's timeout: a connection left on keep-alive would fail it.
    server!.keepAliveTimeout = 60_000;
    const response = await fetch(url);
    expect(response.headers.get('connection')).toBe('close');
    const read = readUntil(response.body as ReadableStream<Uint8Array>, () => false);
    const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
    streams.closeAll();
    await Promise.all([read, closing]);
    server = undefined;
  });

  it('ends at once a stream asked for once the streams are closed', async () => {
    const streams = new TaskStreams({ steps: () => [step('s1')], replies: () => [] }, new TaskFeed(), 60_000);
    const url = await serveStreams(streams);
    streams.closeAll();
    const response = await fetch(url);
    expect(await response.text()).toBe('retry: 1000\n\n');
    expect(streams.size).toBe(0);
  });
});
