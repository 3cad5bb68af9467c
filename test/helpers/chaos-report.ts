import type { ExactlyOnceChaosResult } from './chaos-run.js';
import { formatAudit } from './exactly-once-audit.js';

/** The run's result as lines for a person: counts first, then what went wrong, if anything. */
export function describeChaosResult(result: ExactlyOnceChaosResult): string[] {
  const { audits } = result;
  const took = audits.completed;
  return [
    `published ${result.published}, took effect ${took.tookEffect}, lost ${took.lost}, duplicated ${took.duplicated}, ` +
      `out of order ${took.outOfOrder} (agent COMPLETED events by message_id; all but published must be 0)`,
    formatAudit('  agent COMPLETED events', audits.completed),
    formatAudit('  agent ledger effects  ', audits.ledger),
    formatAudit('  router ROUTED events  ', audits.routed),
    formatAudit('  agent inbox records   ', audits.inbox),
    `kills: ${result.kills.length} (router ${result.services.router.kills}, agent ${result.services.agent.kills}); ` +
      `at ${result.kills.map((kill) => `${kill.victim[0]}@${(kill.atMs / 1000).toFixed(1)}s`).join(' ')}`,
    `records of transactions the kills cut short (aborted, then redone): router ${result.abortedRecords.inbox}, ` +
      `agent ${result.abortedRecords.ledger}`,
    `kafkajs read_committed phantoms (aborted events kafkajs delivers as committed): ${result.kafkajsPhantomEvents}`,
    `duplicates skipped: router ${result.services.router.duplicatesSkipped}, agent ${result.services.agent.duplicatesSkipped}; ` +
      `unexpected exits: router ${result.services.router.unexpectedExits}, agent ${result.services.agent.unexpectedExits}; ` +
      `failed starts: router ${result.services.router.failedStarts}, agent ${result.services.agent.failedStarts}`,
    ...result.disruptions.map(
      (d) => `${d.name}${d.detail ? ` (${d.detail})` : ''} at ${seconds(d.atMs)}, took ${seconds(d.tookMs)}`,
    ),
    'longest pause in completions after each fault (until the next):',
    ...result.faults.map(
      (fault) => `  ${seconds(fault.atMs).padStart(7)}  ${seconds(fault.longestPauseMs).padStart(6)}  ${fault.name}`,
    ),
    result.drainMs === undefined
      ? 'nothing was completed'
      : `drained ${seconds(result.drainMs)} after the last publish and the end of the last fault`,
    `inbound records ${result.inboundRecords} (sends made again: ${result.resends}), dead letters ${result.deadLetters}, ` +
      `seq mismatches ${result.seqMismatches}, other events ${JSON.stringify(result.otherEvents)}, ` +
      `exit codes router ${result.exitCodes.router} agent ${result.exitCodes.agent}`,
    ...Object.entries(audits)
      .filter(([, audit]) => !audit.ok)
      .map(([name, audit]) => `${name} examples: ${JSON.stringify(audit.examples)}`),
    ...result.problems.map((problem) => `problem: ${problem}`),
    `seed ${result.seed}, ${(result.durationMs / 1000).toFixed(1)}s: ${result.ok ? 'OK' : 'FAILED'}`,
  ];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
