import { createRequire } from 'node:module';
import { replacePrototypeMethods, type PrototypePatch } from './module-replacement.js';

/**
 * kafkajs 2.2.4 asks the cluster for a coordinator before every transactional request: its
 * eosManager calls `cluster.findGroupCoordinator` for AddPartitionsToTxn, AddOffsetsToTxn,
 * TxnOffsetCommit and EndTxn alike (src/producer/eosManager/index.js), and the Cluster keeps no
 * answer. A transaction of Baton's engine is five requests, and these four FindCoordinator requests
 * on top of them were about a third of its round trips: most of a message's latency at light load,
 * and work for the broker at every load. The Java client keeps the coordinator it found until a
 * request to it fails, and so does this fix: each Cluster remembers the coordinator of each
 * (type, id) it looked up, and forgets it when any request to that broker through the answer
 * fails (NOT_COORDINATOR, a broker gone, anything), so kafkajs's own retry looks it up afresh.
 * Not an upstream fix (kafkajs has had no release since 2.2.4): Baton's.
 */

interface BrokerLike {
  nodeId?: number;
}

interface CoordinatorQuery {
  groupId: string;
  coordinatorType?: number;
}

export interface ClusterLike {
  findGroupCoordinator(query: CoordinatorQuery): Promise<BrokerLike>;
}

const PATCHED = Symbol.for('baton.kafkajs.coordinatorCache');

/** Each Cluster's coordinators: `${type}/${id}` → the broker, as handed out (see remembering). */
const coordinators = new WeakMap<object, Map<string, BrokerLike>>();

/**
 * `broker`, whose methods forget `key` in `known` when they fail. Made once per broker and key, so
 * every lookup hands out the same object, as kafkajs's own lookups hand out the same broker.
 */
function remembering(broker: BrokerLike, known: Map<string, BrokerLike>, key: string): BrokerLike {
  return new Proxy(broker, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const forget = (error: unknown) => {
          if (known.get(key)?.nodeId === target.nodeId) known.delete(key);
          throw error;
        };
        try {
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
          return result instanceof Promise ? result.catch(forget) : result;
        } catch (error) {
          return forget(error);
        }
      };
    },
  });
}

/** The cached lookup, in place of `original`. */
export function cachedFindGroupCoordinator(
  original: ClusterLike['findGroupCoordinator'],
): ClusterLike['findGroupCoordinator'] {
  return async function (this: object, query: CoordinatorQuery): Promise<BrokerLike> {
    let known = coordinators.get(this);
    if (known === undefined) coordinators.set(this, (known = new Map()));
    const key = `${query.coordinatorType ?? 0}/${query.groupId}`;
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const broker = remembering(await original.call(this, query), known, key);
    known.set(key, broker);
    return broker;
  };
}

const requireFromHere = createRequire(import.meta.url);

/** kafkajs's Cluster class: every client's cluster is one, so patching its prototype reaches them all. */
export function kafkajsCluster(): { prototype: ClusterLike & { [PATCHED]?: true } } {
  return requireFromHere('kafkajs/src/cluster/index.js') as ReturnType<typeof kafkajsCluster>;
}

/** Applies the cache once per process. */
export function patchCoordinatorCache(): PrototypePatch {
  return replacePrototypeMethods(PATCHED, [
    {
      name: "Cluster's findGroupCoordinator",
      prototype: kafkajsCluster().prototype,
      method: 'findGroupCoordinator',
      replace: (original) => cachedFindGroupCoordinator(original as ClusterLike['findGroupCoordinator']) as never,
    },
  ]);
}
