import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { agentsOf, batonTopology } from './topology.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVICES = join(ROOT, 'services');

function serviceFolders(): string[] {
  return readdirSync(SERVICES)
    .filter((name) => statSync(join(SERVICES, name)).isDirectory())
    .sort();
}

/** Every .ts source of a service, tests left out, as one text. */
function sourcesOf(service: string): string {
  const dir = join(SERVICES, service, 'src');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
  );
  return files.map((file) => readFileSync(join(dir, file), 'utf8')).join('\n');
}

/** The id of services/<service>/src/agent.ts's defineAgent: a literal, or a constant exported in its src. */
function agentIdOf(service: string): string | undefined {
  const file = join(SERVICES, service, 'src', 'agent.ts');
  if (!existsSync(file)) return undefined;
  const id = /defineAgent\(\{[\s\S]*?\bid:\s*(?:'([^']+)'|([A-Z0-9_]+))/.exec(readFileSync(file, 'utf8'));
  if (!id) throw new Error(`${file} has no defineAgent({ id }) this test can read`);
  if (id[1] !== undefined) return id[1];
  const constant = new RegExp(`export const ${id[2]} = '([^']+)'`).exec(sourcesOf(service));
  if (!constant) throw new Error(`services/${service}/src exports no constant ${id[2]}`);
  return constant[1];
}

describe('batonTopology', () => {
  const topology = batonTopology();

  it('lists every folder of services/, once: a new service gets a principal or fails this test', () => {
    expect(topology.services.map((service) => service.service).sort()).toEqual(serviceFolders());
  });

  it.each(serviceFolders())('%s: an agent with the id of its defineAgent, or the service its name says', (name) => {
    const service = topology.services.find((entry) => entry.service === name)!;
    const agentId = agentIdOf(name);
    if (agentId === undefined) {
      expect(service.kind).toBe(name);
    } else {
      expect(service).toMatchObject({ kind: 'agent', agentId });
    }
  });

  it("holds every agent the router's table names, so the router may write its inbox", () => {
    const table = parse(readFileSync(join(SERVICES, 'router', 'routing-table.yaml'), 'utf8')) as { agents: string[] };
    const ids = agentsOf(topology).map((agent) => agent.agentId);
    expect(table.agents.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it.each(agentsOf(topology).map((agent) => [agent.service, agent] as const))(
    '%s: its state topics are those its code names, and it negotiates only if it calls requestHandoff',
    (name, agent) => {
      const sources = sourcesOf(name);
      for (const suffix of agent.stateTopics ?? []) expect(sources).toContain(`.agent.${agent.agentId}.${suffix}\``);
      expect(sources.match(/\.agent\.[a-z0-9_]+\.([a-z]+)`/g) ?? []).toEqual(
        (agent.stateTopics ?? []).map((suffix) => `.agent.${agent.agentId}.${suffix}\``),
      );
      expect((agent.negotiatesWith ?? []).length > 0).toBe(/\.requestHandoff\(/.test(sources));
    },
  );
});
