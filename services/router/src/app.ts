import { AgentRegistryReader, AgentRegistryView, ensureAgentsTopic, type RegistryConfig } from '@baton/agent-registry';
import { BatonError } from '@baton/errors';
import { ROUTER_AGENT_ID } from '@baton/protocol';
import {
  hasHeaderNamed,
  headerNames,
  type ConsumedRecord,
  type ConsumerObserver,
  type OutputRecord,
} from '@baton/kafka';
import {
  Counter,
  HotCounter,
  METRIC_NAMES,
  component,
  eventLabels,
  outcomeRecord,
  type Component,
  type HandoffServiceContext,
  type HandoffServiceDefinition,
  type Registry,
} from '@baton/runtime';
import { VOUCH_HEADER, VerificationSeals, digestOf } from '@baton/message-signing';
import {
  authorizeDispatch,
  routeHandoff,
  type AgentLiveness,
  type RoutingTable,
  type SenderPolicy,
  type Undelivered,
} from '@baton/routing';
import type { KeyRingSource } from '@baton/field-encryption';
import { PersonalDataGate } from './personal-data/personal-data-gate.js';

export const ROUTER_ID = ROUTER_AGENT_ID;

/** Why each recipient left out got nothing, for the NOT_DELIVERED event's detail. */
export function undeliveredDetail(
  undelivered: readonly Undelivered[],
  ruleId: string,
  targets: readonly string[],
): string {
  const why = (each: Undelivered) =>
    each.why === 'unknown' ? `${each.agent}: no such agent in the routing table` : `${each.agent}: not chosen`;
  return `not delivered to ${undelivered.map(why).join('; ')}; rule ${ruleId} sent the handoff to ${targets.join(', ')}`;
}

/** Headers the router adds to a handoff it dispatches, so the decision is visible without decoding. */
export const ROUTE_HEADERS = {
  rule: 'baton.route.rule',
  target: 'baton.route.target',
  /** The agents the table chose that had no live instance, when the fallback took over. */
  fallbackFor: 'baton.route.fallback-for',
} as const;

/**
 * Counts `baton_handoffs_routed_total{handoff_type,issue_category,rule,target}` from the records
 * committed with each handoff (one per target), so a dispatch whose transaction failed and was
 * retried counts once; and `baton_handoffs_refused_total{handoff_type,recipient}`, the handoffs
 * the sender policy dead-lettered. The sender is no label: unverified, it is whatever a client
 * claims, which would grow the series without bound.
 */
export function routedMetrics(registry: Registry): ConsumerObserver {
  const routed = new HotCounter({
    name: METRIC_NAMES.handoffsRouted,
    help: 'Handoffs the router dispatched, one per target, by handoff_type, issue_category, rule and target',
    labelNames: ['handoff_type', 'issue_category', 'rule', 'target'],
    registers: [registry],
  });
  const refused = new Counter({
    name: METRIC_NAMES.handoffsRefused,
    help: 'Handoffs the sender policy refused (dead-lettered NOT_AUTHORIZED), by handoff_type and the recipient refused',
    labelNames: ['handoff_type', 'recipient'],
    registers: [registry],
  });
  return {
    deadLettered({ record, labels, error }) {
      if (error.code !== 'NOT_AUTHORIZED') return;
      const { handoff_type } = eventLabels(labels, record);
      refused.inc({ handoff_type, recipient: String(error.details?.recipient) });
    },
    processed({ record, labels, outputs }) {
      const handoff = eventLabels(labels, record);
      for (const output of outputs) {
        const rule = output.headers?.[ROUTE_HEADERS.rule];
        const target = output.headers?.[ROUTE_HEADERS.target];
        if (rule !== undefined && target !== undefined) {
          routed.inc(handoff.handoff_type, handoff.issue_category, rule, target);
        }
      }
    },
  };
}

/**
 * The record's headers with this decision's added. A replayed record may carry an earlier
 * decision's and an earlier vouch: this one's replace them. One copy per target,
 * without `delete`, which would turn the copy into a slow dictionary object on every handoff the
 * router dispatches.
 */
function routedHeaders(
  headers: Readonly<Record<string, string>>,
  rule: string,
  target: string,
  fallbackFor: string | undefined,
  seal: string | undefined,
): Record<string, string> {
  const routed: Record<string, string> = {};
  for (const name in headers) {
    if (name !== ROUTE_HEADERS.fallbackFor && name !== VOUCH_HEADER && Object.hasOwn(headers, name))
      routed[name] = headers[name] as string;
  }
  routed[ROUTE_HEADERS.rule] = rule;
  routed[ROUTE_HEADERS.target] = target;
  if (fallbackFor !== undefined) routed[ROUTE_HEADERS.fallbackFor] = fallbackFor;
  if (seal !== undefined) routed[VOUCH_HEADER] = seal;
  return routed;
}

const ROUTE_HEADER_NAMES = headerNames([...Object.values(ROUTE_HEADERS), VOUCH_HEADER]);

/** Decisions whose headers are remembered: routes of the table and its targets, and discovered agents. */
const REMEMBERED_DECISIONS = 4_096;

/**
 * The headers of a decision without a fallback, one frozen object per rule and target: a forwarded
 * record holds them until its transaction commits, and a router holds thousands of records at once.
 */
class DecisionHeaders {
  private readonly byRule = new Map<string, Map<string, Readonly<Record<string, string>>>>();
  private size = 0;

  of(rule: string, target: string, fallbackFor: string | undefined): Record<string, string> {
    if (fallbackFor !== undefined) {
      return { [ROUTE_HEADERS.rule]: rule, [ROUTE_HEADERS.target]: target, [ROUTE_HEADERS.fallbackFor]: fallbackFor };
    }
    let byTarget = this.byRule.get(rule);
    let headers = byTarget?.get(target);
    if (headers === undefined) {
      headers = Object.freeze({ [ROUTE_HEADERS.rule]: rule, [ROUTE_HEADERS.target]: target });
      if (this.size < REMEMBERED_DECISIONS) {
        if (byTarget === undefined) this.byRule.set(rule, (byTarget = new Map()));
        byTarget.set(target, headers);
        this.size += 1;
      }
    }
    // Frozen: the producer only reads a record's headers, and tracing copies them to add its own.
    return headers as Record<string, string>;
  }
}

const decisionHeaders = new DecisionHeaders();

/**
 * The record on its way to `topic`, with this decision's headers and the router's verification
 * vouch for the target (its seal, in baton.vouch), when it verified the handoff's signature or
 * its sender's seal. Its own headers go on as they were fetched,
 * copied rather than decoded and encoded again (the decision's are written after them), unless it
 * carries an earlier decision's or vouch (a replay), which this one's must replace.
 */
export function forwarded(
  record: ConsumedRecord,
  topic: string,
  key: string,
  rule: string,
  target: string,
  fallbackFor: string | undefined,
  seal?: string,
): OutputRecord {
  const value = record.value as Buffer;
  // Read as it came, without decoding its headers: the consumer decodes them only when they are read.
  const { encodedHeaders } = record;
  if (encodedHeaders === undefined || hasHeaderNamed(encodedHeaders, ROUTE_HEADER_NAMES)) {
    return { topic, key, value, headers: routedHeaders(record.headers, rule, target, fallbackFor, seal) };
  }
  const decision = decisionHeaders.of(rule, target, fallbackFor);
  // headersAdded: the block has been looked through for the decision's names above.
  return {
    topic,
    key,
    value,
    encodedHeaders,
    headers: seal === undefined ? decision : { ...decision, [VOUCH_HEADER]: seal },
    headersAdded: true,
  };
}

export interface RouterOptions {
  /** BATON_LIVENESS_WINDOW_MS and the rest, see loadRegistryConfig. */
  registry: Readonly<Pick<RegistryConfig, 'livenessWindowMs'>>;
  /** Which senders may send what to whom (AUTHORIZATION_POLICY); absent: every sender may send anything. */
  policy?: SenderPolicy;
  /**
   * BATON_PII_REQUIRED=true: the key ring that encrypts the personal fields of what the router
   * refuses (see PersonalDataGate); absent, personal fields pass as they came.
   */
  personalDataKeyRing?: KeyRingSource;
  now?: () => Date;
}

/**
 * The router's view of the agent registry: read from `<prefix>.agents` to its end before the
 * router takes its first handoff (the chassis starts components before the consumer), then followed.
 */
class RouterRegistry {
  readonly view: AgentRegistryView;
  /** One for every decision, reading the clock when asked: routing asks for every handoff. */
  readonly liveness: AgentLiveness;

  constructor(options: RouterOptions) {
    const view = new AgentRegistryView({ livenessWindowMs: options.registry.livenessWindowMs });
    const now = options.now ?? (() => new Date());
    this.view = view;
    this.liveness = {
      mayRoute: (agentId) => view.mayRoute(agentId, now()),
      discover: (term) => view.discover(term, now()),
    };
  }

  component({ config, topics, kafka, logger }: HandoffServiceContext): Component {
    const reader = new AgentRegistryReader({
      kafka,
      topic: topics.agents,
      groupId: `${topics.prefix}.router.registry.${config.instanceId}`,
      view: this.view,
      logger,
    });
    return component('registry-reader', {
      start: async () => {
        await ensureAgentsTopic(kafka, topics.agents, {
          numPartitions: config.partitions,
          replicationFactor: config.replicationFactor,
        });
        await reader.start();
        const agents = this.view.agents(new Date());
        logger.info(
          {
            event: 'registry.loaded',
            topic: topics.agents,
            agents: agents.length,
            live: agents.filter((a) => a.live).length,
          },
          'agent registry read',
        );
      },
      close: () => reader.stop(),
      isReady: () => reader.isRunning,
    });
  }
}

/**
 * The router: consumes the inbound topic and dispatches each handoff to the inbox of the agent
 * its routing table names, or (with `discovery`) a live agent with the capability it asks for.
 * The record goes on byte for byte, with its headers and the routing decision added (and, with
 * tracing on, a traceparent naming the router's own span, so its hop shows in the trace). A handoff
 * with no route goes to the dead-letter topic with NO_ROUTE; one whose agent has no live instance
 * goes to the rule's or the table's fallback, else to the dead-letter topic with NO_LIVE_AGENT.
 * With a sender policy, a handoff whose metadata.sender_id may not send its handoff_type to an
 * agent so chosen goes to the dead-letter topic with NOT_AUTHORIZED instead. With a personal data
 * key ring (BATON_PII_REQUIRED=true), a handoff whose personal fields arrive in clear goes there
 * first, with PERSONAL_DATA_UNENCRYPTED and those fields encrypted.
 */
export function routerService(
  table: RoutingTable,
  options: RouterOptions = { registry: { livenessWindowMs: undefined } },
): HandoffServiceDefinition {
  const registry = new RouterRegistry(options);
  const gate = options.personalDataKeyRing && new PersonalDataGate(options.personalDataKeyRing);
  return {
    name: ROUTER_ID,
    groupId: (topics) => `${topics.prefix}.router`,
    sourceTopic: (topics) => topics.inbound,
    outputTopics: (topics) => [...[...table.agents].map((agent) => topics.agentInbox(agent)), topics.events],
    createProcessor: ({ topics, outcomeCodec, config }) => {
      const { signingKey, trustStore } = config.signing;
      // Only what the router verified is sealed: in `warn` a message that failed is forwarded too,
      // and its agent must find that out for itself.
      const seals = signingKey && trustStore && new VerificationSeals(signingKey, trustStore);
      return {
        agentId: ROUTER_ID,
        handle(message, { record }, facts) {
          gate?.check(message, record);
          const decision = routeHandoff(table, message, registry.liveness);
          if (decision.kind === 'no-route') {
            throw new BatonError('NO_ROUTE', decision.reason, { details: { stage: 'route' } });
          }
          if (decision.kind === 'no-live-agent') {
            throw new BatonError('NO_LIVE_AGENT', decision.reason, { details: { stage: 'route' } });
          }
          const authorization = options.policy && authorizeDispatch(options.policy, message, decision);
          if (authorization?.kind === 'refused') {
            const { sender, handoffType, recipient, reason } = authorization;
            throw new BatonError('NOT_AUTHORIZED', reason, {
              path: '/metadata/sender_id',
              details: { stage: 'authorize', sender, handoff_type: handoffType, recipient },
            });
          }
          const fallbackFor = decision.fallbackFor?.join(',');
          const { targets, undelivered } = decision;
          // Of its final length from the start: a pushed element would grow it to 17 slots, held
          // until the transaction commits.
          const outputs = new Array<OutputRecord>(targets.length + (undelivered === undefined ? 1 : 2));
          for (let index = 0; index < targets.length; index += 1) {
            const target = targets[index] as string;
            outputs[index] = forwarded(
              record,
              topics.agentInbox(target),
              message.metadata.task_id,
              decision.ruleId,
              target,
              fallbackFor,
              facts.verified === undefined ? undefined : seals?.seal((facts.digest ??= digestOf(facts.value)), target),
            );
          }
          outputs[targets.length] = outcomeRecord(outcomeCodec, topics.events, message, {
            agentId: ROUTER_ID,
            outcome: 'ROUTED',
            target: decision.targets.join(','),
            detail:
              fallbackFor === undefined
                ? `rule ${decision.ruleId}`
                : `rule ${decision.ruleId}, fallback for ${fallbackFor} (no live instance)`,
          });
          if (undelivered !== undefined) {
            outputs[targets.length + 1] = outcomeRecord(outcomeCodec, topics.events, message, {
              agentId: ROUTER_ID,
              outcome: 'NOT_DELIVERED',
              target: undelivered.map((each) => each.agent).join(','),
              detail: undeliveredDetail(undelivered, decision.ruleId, targets),
            });
          }
          return outputs;
        },
        deadLetterOutputs: ({ message, error }) =>
          message === undefined
            ? []
            : [
                outcomeRecord(outcomeCodec, topics.events, message.value, {
                  agentId: ROUTER_ID,
                  outcome: 'DEAD_LETTERED',
                  errorCode: error.code,
                  detail: error.message,
                }),
              ],
        ...(gate && { deadLetterValue: (context) => gate.deadLetterValue(context) }),
      };
    },
    observer: ({ metrics }) => routedMetrics(metrics),
    components: (context) => [registry.component(context), ...(gate ? [gate.component(context)] : [])],
  };
}
