import { setTimeout as sleep } from 'node:timers/promises';
import type { OrderedPublisher } from './ordered-publisher.js';

/** One handoff to POST, as a client sends it: its task, and the whole message with its message_id. */
export interface GatewayHandoff {
  taskId: string;
  body: Record<string, unknown>;
}

export interface GatewayPublisherOptions {
  /** The gateways' addresses now: an instance being started again has none. */
  addresses(): string[];
  /** A credential with the publisher role. */
  token: string;
  handoffs: readonly GatewayHandoff[];
  /** Resolves true once handoff `next` may be sent (flow control), false to stop publishing. */
  waitForRoom(next: number): Promise<boolean>;
  /** A failed POST is tried again, on the next gateway, until this time (epoch ms). */
  retryUntil: number;
  /** POSTs in flight at most, each of a different task. @default 32 */
  concurrency?: number;
  /** Told of each POST that failed and is tried again. */
  onRetry?(line: string): void;
}

/** How long a POST may take before it is given up and tried again on the next gateway. */
const REQUEST_TIMEOUT_MS = 10_000;
/** The pause before a POST that failed is tried again. */
const RETRY_PAUSE_MS = 200;

/**
 * Publishes handoffs through the gateways' POST /v1/handoffs, as a client of several gateway
 * instances would: each task's handoffs one after another, each sent once the one before it was
 * answered 202, so they reach the inbound topic in the order given; different tasks' side by side,
 * taking the gateways in turn. A POST that fails (a refused connection, a timeout, a 5xx: a gateway
 * killed or its broker away) is sent again, with the same message_id, to the next gateway: one the
 * failed gateway had in fact published then appears twice, in the same order, which consumers
 * deduplicating by message_id absorb. A 4xx ends publishing with its error: the run sent a handoff
 * the gateway refuses.
 */
export function publishThroughGateways(options: GatewayPublisherOptions): OrderedPublisher {
  const concurrency = options.concurrency ?? 32;
  /** The last POST of each task, which its next one waits for. */
  const lastOfTask = new Map<string, Promise<void>>();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let resent = 0;
  let turn = 0;
  let closing = false;
  let failure: Error | undefined;

  const post = async (handoff: GatewayHandoff): Promise<void> => {
    for (;;) {
      if (failure !== undefined) throw failure;
      const addresses = options.addresses();
      const address = addresses[turn++ % Math.max(1, addresses.length)];
      let problem: string;
      if (address === undefined) {
        problem = 'no gateway is up';
      } else {
        try {
          const response = await fetch(`${address}/v1/handoffs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(handoff.body),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
          const answer = await response.text();
          if (response.status === 202) {
            sent += 1;
            return;
          }
          if (response.status < 500)
            throw new Error(`POST ${address}/v1/handoffs answered ${response.status}: ${answer}`);
          problem = `${response.status} ${answer.slice(0, 200)}`;
        } catch (error) {
          if (error instanceof Error && error.message.startsWith('POST ')) {
            failure = error;
            throw error;
          }
          problem =
            error instanceof Error
              ? error.cause instanceof Error
                ? error.cause.message
                : error.message
              : String(error);
        }
      }
      if (closing) return;
      if (Date.now() >= options.retryUntil)
        throw new Error(`gave up publishing ${handoff.taskId}'s handoff: ${problem}`);
      resent += 1;
      options.onRetry?.(`POST /v1/handoffs of ${handoff.taskId} failed (${problem}); sending it again`);
      await sleep(RETRY_PAUSE_MS);
    }
  };

  const done = (async () => {
    for (const [index, handoff] of options.handoffs.entries()) {
      if (!(await options.waitForRoom(index)) || closing) break;
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
      if (failure !== undefined) throw failure;
      const previous = lastOfTask.get(handoff.taskId) ?? Promise.resolve();
      const sending = previous.then(() => post(handoff));
      const tracked = sending.finally(() => inFlight.delete(tracked));
      // A failure is thrown where done is awaited, not left unhandled here.
      tracked.catch(() => undefined);
      inFlight.add(tracked);
      lastOfTask.set(handoff.taskId, sending);
    }
    await Promise.all(lastOfTask.values());
  })();
  done.catch(() => undefined);

  return {
    get sent() {
      return sent;
    },
    get resends() {
      return resent;
    },
    done,
    async close() {
      closing = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
