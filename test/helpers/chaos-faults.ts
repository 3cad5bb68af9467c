import type { LocalKafka } from '@baton/local-infra';
import { BROKER_FAULTS, brokerFaults, type BrokerFault } from './broker-faults.js';
import type { ChaosDisruption } from './chaos-run.js';

/**
 * The agent scaled out and in while handoffs flow: a third instance added, then one taken away
 * with SIGTERM (it drains and commits, and leaves its group) and one with SIGKILL (its group finds
 * out by the session timeout). Each is a rebalance of the agent's group; the run measures how long
 * completions paused after it.
 */
export const SCALING_FAULTS = ['scale-out', 'scale-in', 'scale-in-kill'] as const;
export type ScalingFault = (typeof SCALING_FAULTS)[number];

/** A gateway instance SIGKILLed while the run publishes through the gateways, and started again at once. */
export const GATEWAY_FAULTS = ['gateway-kill'] as const;

/** Every fault a chaos run on a cluster makes besides the kills, by the names CHAOS_FAULTS takes. */
export const CHAOS_FAULTS = [...BROKER_FAULTS, ...SCALING_FAULTS, ...GATEWAY_FAULTS] as const;
export type ChaosFault = (typeof CHAOS_FAULTS)[number];

/**
 * The faults of the services rather than the brokers (scaling the agent, killing a gateway) of a
 * run of `handoffs`, once the agent has completed the given shares of them.
 */
export function scalingFaults(
  handoffs: number,
  only: readonly ChaosFault[] = [...SCALING_FAULTS, ...GATEWAY_FAULTS],
): ChaosDisruption[] {
  const at = (share: number) => Math.floor(handoffs * share);
  const faults: (ChaosDisruption & { id: ScalingFault | (typeof GATEWAY_FAULTS)[number] })[] = [
    {
      id: 'scale-out',
      name: 'scale the agent out: one more instance',
      atProgress: at(0.18),
      run: (run) => run.scale.add('agent'),
    },
    {
      id: 'gateway-kill',
      name: 'SIGKILL a gateway instance, started again at once',
      atProgress: at(0.33),
      run: (run) => run.killGateway(),
    },
    {
      id: 'scale-in',
      name: 'scale the agent in: an instance stopped with SIGTERM',
      atProgress: at(0.48),
      run: (run) => run.scale.remove('agent', 'SIGTERM'),
    },
    {
      id: 'scale-in-kill',
      name: 'scale the agent in: an instance SIGKILLed and not started again',
      atProgress: at(0.62),
      run: (run) => run.scale.remove('agent', 'SIGKILL'),
    },
  ];
  return faults
    .filter((fault) => only.includes(fault.id))
    .map((fault) => ({ name: fault.name, atProgress: fault.atProgress, run: fault.run }));
}

/**
 * The broker faults (broker-faults.ts) and the scaling faults of a run of `handoffs` on `cluster`,
 * `only` those named, in the order they come.
 */
export function chaosFaults(
  cluster: LocalKafka,
  handoffs: number,
  only: readonly ChaosFault[] = CHAOS_FAULTS,
): ChaosDisruption[] {
  const brokerOnes = only.filter((fault): fault is BrokerFault => (BROKER_FAULTS as readonly string[]).includes(fault));
  return [...brokerFaults(cluster, handoffs, brokerOnes), ...scalingFaults(handoffs, only)].sort(
    (a, b) => a.atProgress - b.atProgress,
  );
}

/** CHAOS_FAULTS: a comma-separated list of CHAOS_FAULTS' names; unset, all of them. */
export function parseChaosFaults(value: string | undefined): ChaosFault[] {
  if (value === undefined || value.trim() === '') return [...CHAOS_FAULTS];
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(CHAOS_FAULTS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`CHAOS_FAULTS names no fault ${unknown.join(', ')}: choose from ${CHAOS_FAULTS.join(', ')}`);
  return names as ChaosFault[];
}
