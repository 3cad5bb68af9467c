import { Ajv, type ValidateFunction } from 'ajv';
import type { JSONSchema7, ToolSet } from 'ai';
import type { AgentCard } from '@baton/agent-registry';
import type { Immutable, JsonObject, JsonValue } from '@baton/protocol';
import type { Logger } from '@baton/runtime';

/** What a tool's function is told about the call it serves. */
export interface ToolCallContext {
  /**
   * `<message_id>:<position>`: the same on every redelivery of the handoff for the call at the same
   * position, so a side effect outside Kafka (a payment API) can be made idempotent with it.
   */
  idempotencyKey: string;
  taskId: string;
  messageId: string;
  /** `<step>.<index>`: the model call of the handling (from 0) and the call's place in its answer. */
  position: string;
  logger: Logger;
}

/** A tool the model may call: OpenAI's function tools, with JSON-schema parameters. */
export interface ModelTool {
  name: string;
  description: string;
  /** A JSON Schema of an object: the call's arguments are checked against it before `run`. */
  parameters: JSONSchema7;
  /**
   * A side effect (execute_refund, execute_order): its call is recorded in the ledger with the
   * handled message, in the same transaction, and takes effect once per handoff and call position;
   * a repeated call (a retry of the handoff) gets the recorded result without `run` running again.
   */
  effect?: boolean;
  /** The tool's answer, given to the model as its result. Throw to answer the model with an error. */
  run(args: JsonObject, call: ToolCallContext): JsonValue | Promise<JsonValue>;
}

/** Another agent the model may hand the conversation to, by calling a tool. */
export interface ModelHandoffTarget {
  /** The receiving agent's id. */
  to: string;
  /**
   * When the model should call it, in this agent's words (seed 002's `Use for issues, repairs, or
   * refunds.`). The tool's description is these words, then what the receiving agent's card in the
   * agent registry says it is and can do (see handoffToolDescription).
   */
  description?: string;
  /** The tool's name; default `transfer_to_<to>`. */
  tool?: string;
  /**
   * `transfer` (default): a TASK_TRANSFER with the task's data; `escalation`: an ESCALATION, which
   * needs the customer's identity (the task's customer_info).
   */
  kind?: 'transfer' | 'escalation';
  /** The issue_category of what is handed over; default: the task's. */
  issue_category?: string;
}

export function handoffToolName(target: ModelHandoffTarget): string {
  return target.tool ?? `transfer_to_${target.to}`;
}

/**
 * A handoff tool's description as the model is offered it: the sender's words on when to call it,
 * then the receiver's card, as the receiver registered it: its name, its description (else its
 * domain) and its skills. Without either, what the tool does.
 */
export function handoffToolDescription(target: ModelHandoffTarget, card: AgentCard | undefined): string {
  const parts = target.description === undefined ? [] : [target.description];
  if (card !== undefined) {
    const skills = card.skills.map((skill) =>
      skill.description === undefined ? skill.name : `${skill.name} (${skill.description})`,
    );
    parts.push(
      `Hands the conversation to ${card.name}: ${card.description ?? card.domain}` +
        (skills.length === 0 ? '' : ` Its skills: ${skills.join('; ')}.`),
    );
  }
  return parts.length === 0 ? `Hands the conversation to ${target.to}.` : parts.join('\n');
}

/** Each handoff tool's description, by tool name, from the receivers' cards as `cardOf` finds them. */
export async function handoffToolDescriptions(
  handoffs: readonly ModelHandoffTarget[],
  cardOf: (agentId: string) => Promise<AgentCard | undefined>,
): Promise<Map<string, string>> {
  const cards = await Promise.all(handoffs.map((target) => cardOf(target.to)));
  return new Map(
    handoffs.map((target, index) => [handoffToolName(target), handoffToolDescription(target, cards[index])]),
  );
}

const NO_PARAMETERS: JSONSchema7 = { type: 'object', properties: {}, additionalProperties: false };

/** A tool compiled once per agent: its arguments' validator. */
export interface CompiledTool {
  tool: ModelTool;
  validate: ValidateFunction;
}

export function compileTools(tools: readonly ModelTool[]): Map<string, CompiledTool> {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return new Map(tools.map((tool) => [tool.name, { tool, validate: ajv.compile(tool.parameters) }]));
}

/** Why arguments do not fit a tool's parameters, in words a model can act on. */
export function argumentErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`)
    .join('; ');
}

/**
 * The tools as the model is offered them, without `execute`: the agent runs them itself, so that
 * it decides which call is an effect, a handoff or an error. `ai` is imported here, at the first
 * turn, not at start: it costs an agent about 23 MiB and 110 ms, which the rule-based agents that
 * share this package's import do without.
 */
export async function modelToolSet(
  tools: readonly ModelTool[],
  handoffs: readonly ModelHandoffTarget[],
  handoffDescriptions: ReadonlyMap<string, string>,
): Promise<ToolSet> {
  const { jsonSchema } = await import('ai');
  const set: ToolSet = {};
  for (const tool of tools) {
    set[tool.name] = { description: tool.description, inputSchema: jsonSchema(tool.parameters) };
  }
  for (const target of handoffs) {
    const name = handoffToolName(target);
    set[name] = {
      description: handoffDescriptions.get(name) ?? handoffToolDescription(target, undefined),
      inputSchema: jsonSchema(NO_PARAMETERS),
    };
  }
  return set;
}

/** A tool's answer as the text the model reads. */
export function resultText(result: Immutable<JsonValue>): string {
  return typeof result === 'string' ? result : JSON.stringify(result);
}
