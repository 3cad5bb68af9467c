import type { ServerResponse } from 'node:http';
import type { TimelineEvent, UserReply } from '@baton/gateway-api';
import type { TaskFeed } from './task-feed.js';
import { framesAfter, sseText, type StreamPosition } from './task-stream.js';

/** Where a task's stream reads its steps and replies, each in its topic's order. */
export interface TaskStreamSource {
  steps(taskId: string): readonly TimelineEvent[];
  replies(taskId: string): readonly UserReply[];
}

/**
 * A comment line this often keeps proxies and load balancers, which close a connection idle for
 * about a minute, from cutting a stream of a task that is quiet for a while.
 */
export const STREAM_PING_MS = 15_000;

/**
 * The open `GET /v1/tasks/{task_id}/events` streams. Each writes what its task's timeline and
 * replies hold past the client's position, then whatever the feed announces, until the client
 * goes or the gateway closes (`closeAll`, before the HTTP server waits for its connections).
 */
export class TaskStreams {
  private readonly open = new Set<ServerResponse>();
  private closed = false;

  constructor(
    private readonly source: TaskStreamSource,
    private readonly feed: TaskFeed,
    private readonly pingMs: number = STREAM_PING_MS,
  ) {}

  serve(taskId: string, from: StreamPosition, response: ServerResponse): void {
    let position = from;
    const flush = (): void => {
      const { frames, to } = framesAfter(position, this.source.steps(taskId), this.source.replies(taskId));
      position = to;
      if (frames.length > 0) response.write(frames.map(sseText).join(''));
    };
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // A reverse proxy (nginx) must pass each event on at once, not buffer the stream.
      'x-accel-buffering': 'no',
      // The connection ends with its stream. Left open on keep-alive, one whose stream ended after
      // the server began to close would hold that close for the whole keep-alive timeout (72 s).
      connection: 'close',
    });
    // A client learns how long to wait before reconnecting; the feed is watched before the backlog
    // is read, so nothing folded in between is missed.
    response.write('retry: 1000\n\n');
    if (this.closed) {
      // Asked for as the gateway stops: the client reconnects, to another instance or this one restarted.
      response.end();
      return;
    }
    const unwatch = this.feed.watch(taskId, flush);
    const ping = setInterval(() => response.write(': ping\n\n'), this.pingMs);
    this.open.add(response);
    response.once('close', () => {
      unwatch();
      clearInterval(ping);
      this.open.delete(response);
    });
    flush();
  }

  get size(): number {
    return this.open.size;
  }

  closeAll(): void {
    this.closed = true;
    for (const response of this.open) response.end();
  }
}
