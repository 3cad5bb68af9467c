import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS_TOPIC_CONFIG } from '@baton/agent-registry';
import { DEFAULT_DEDUPE_RETENTION_MS, deadLetterTopic, processedIdsTopic, topicNames } from '@baton/kafka';
import { parse } from 'yaml';

/** The repository root, whatever the working directory of the test run. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function repoPath(...parts: string[]): string {
  return join(REPO_ROOT, ...parts);
}

export function readRepoFile(...parts: string[]): string {
  return readFileSync(repoPath(...parts), 'utf8');
}

/**
 * Every folder of services/: each is a service that must be deployed. Derived from the folders, so
 * a service added without a deployment fails the tests.
 */
export function serviceNames(): string[] {
  return readdirSync(repoPath('services'))
    .filter((name) => statSync(repoPath('services', name)).isDirectory())
    .sort();
}

/**
 * The agent id of a service, read from services/<name>/src/agent.ts (`id: CONSTANT` or `id: 'literal'`
 * in defineAgent, the constant exported by a file of the same service); undefined for a service that
 * is not an agent.
 */
export function agentIdOf(service: string): string | undefined {
  const srcDir = repoPath('services', service, 'src');
  const agentFile = join(srcDir, 'agent.ts');
  if (!existsSync(agentFile)) return undefined;
  const id = /defineAgent\(\{[\s\S]*?\bid:\s*(?:'([^']+)'|([A-Z0-9_]+))/.exec(readFileSync(agentFile, 'utf8'));
  if (!id) throw new Error(`${agentFile} has no defineAgent({ id }) that the deployment tests can read`);
  if (id[1] !== undefined) return id[1];
  const constant = new RegExp(`export const ${id[2]} = '([^']+)'`);
  for (const file of readdirSync(srcDir).filter((name) => name.endsWith('.ts'))) {
    const match = constant.exec(readFileSync(join(srcDir, file), 'utf8'));
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error(`services/${service}/src exports no constant ${id[2]} naming the agent id`);
}

/** The agents' ids: those of services/*\/src/agent.ts and those the routing table names. */
export function agentIds(): string[] {
  const fromServices = serviceNames()
    .map(agentIdOf)
    .filter((id): id is string => id !== undefined);
  const table = parse(readRepoFile('services', 'router', 'routing-table.yaml')) as { agents: string[] };
  return [...new Set([...fromServices, ...table.agents])].sort();
}

/** The human agent's compacted topic of pending tasks (pendingTopic in services/human-agent). */
export function humanPendingTopic(prefix: string): string {
  return `${prefix}.agent.human_agent.pending`;
}

/** The planner agent's compacted topic of workflows (workflowsTopic in services/planner-agent). */
export function plannerWorkflowsTopic(prefix: string): string {
  return `${prefix}.agent.planner_agent.workflows`;
}

export interface ExpectedTopic {
  name: string;
  /** Configs the topic must have, as strings. */
  config: Record<string, string>;
}

/**
 * Every topic the convention of libs/kafka/src/topics/topic-names.ts gives for the agents: each
 * named topic of topicNames() (among them the contexts topic), every agent's inbox and control
 * topic, and for each consumed topic (the inbound topic, the inboxes and the control topics, each
 * read by an exactly-once consumer) its `.dlq` and its compacted `.processed`; plus the human
 * agent's pending topic and the planner agent's workflows topic.
 */
export function expectedTopics(prefix = 'baton'): ExpectedTopic[] {
  const names = topicNames(prefix);
  const named = Object.entries(names)
    .filter(([key, value]) => key !== 'prefix' && typeof value === 'string')
    .map(([, value]) => value as string);
  const consumed = [names.inbound, ...agentIds().flatMap((id) => [names.agentInbox(id), names.agentControl(id)])];
  const topics = new Map<string, Record<string, string>>();
  for (const name of [...named, ...consumed, ...consumed.map(deadLetterTopic)]) topics.set(name, {});
  for (const source of consumed) {
    topics.set(processedIdsTopic(source), {
      'cleanup.policy': 'compact,delete',
      'retention.ms': String(DEFAULT_DEDUPE_RETENTION_MS),
    });
  }
  topics.set(humanPendingTopic(prefix), { 'cleanup.policy': 'compact' });
  topics.set(plannerWorkflowsTopic(prefix), { 'cleanup.policy': 'compact' });
  topics.set(names.agents, Object.fromEntries(AGENTS_TOPIC_CONFIG.map(({ name, value }) => [name, value])));
  return [...topics.entries()].map(([name, config]) => ({ name, config })).sort((a, b) => a.name.localeCompare(b.name));
}

/** Runs a command in the repository root and returns its standard output; throws with its stderr. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(command, args, { cwd: REPO_ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${failure.stderr || failure.message}`, { cause: error });
  }
}
