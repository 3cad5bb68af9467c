import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLedgerEntry, type LedgerEntry } from '@baton/agent-sdk';
import { buildHandoff, type HandoffMessage, type Immutable, type UserInteraction } from '@baton/protocol';
import {
  startBatonRig,
  startOtlpReceiver,
  uniqueName,
  waitFor,
  type BatonRig,
  type OtlpReceiver,
  type ReceivedSpan,
  type RecordCollector,
  type ServiceProcess,
} from './helpers/index.js';
import {
  startScriptedModelServer,
  type ChatMessage,
  type ModelReply,
  type ModelRequest,
  type ScriptedModelServer,
} from './helpers/scripted-model-server.js';

const TRIAGE = 'triage_agent';
const SALES = 'sales_agent';
const ISSUES = 'issues_and_repairs_agent';
const CUSTOMER = { user_id: 'cust-7a568cf5', name: 'Wile E. Coyote' };
// A conversation crosses up to three agents' processes, the router's between each.
const FLOW_TIMEOUT_MS = 30_000;
const MAX_STEPS = 5;

// The opening words of each scripted conversation: the script tells them apart by these.
const REFUND = 'I want a refund';
const PURCHASE = 'I want to buy something that catches roadrunners';
const FLAKY = 'Hello? Is anyone there?';
const LOOPING = 'Where is my order?';
const KILLED = 'I want a refund for my skates';
const MANAGER = 'I want to talk to your manager';
const DOWN = 'Is the shop open on Sundays?';
const HUMAN = 'human_agent';
const VIEWER_TOKEN = 'model-team-viewer';

type Agent = 'triage' | 'sales' | 'issues';

function agentOf(request: ModelRequest): Agent {
  if (request.system.startsWith('You are a customer service bot')) return 'triage';
  if (request.system.startsWith('You are a sales agent')) return 'sales';
  return 'issues';
}

function openingWords(request: ModelRequest): string {
  return request.messages.find((message) => message.role === 'user')?.content ?? '';
}

/** The name of the tool whose result the request ends with, if it ends with one. */
function lastToolResult(request: ModelRequest): { tool: string; content: string } | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'tool') return undefined;
  const call = request.messages
    .flatMap((message) => message.tool_calls ?? [])
    .find((candidate) => candidate.id === last.tool_call_id);
  return { tool: call?.function.name ?? '', content: last.content ?? '' };
}

function said(sender: string, content: string): UserInteraction {
  return { type: 'CHAT_MESSAGE', sender, content, timestamp: '2026-11-24T09:00:00.000Z' };
}

function userRequest(
  taskId: string,
  taskSummary: string,
  history: UserInteraction[] = [],
  retryCount?: number,
): Immutable<HandoffMessage> {
  return buildHandoff({
    metadata: { sender_id: 'user', recipient_id: TRIAGE, task_id: taskId },
    context: { previous_actions: [], user_interaction_history: history },
    payload: {
      handoff_type: 'TASK_TRANSFER',
      data: { issue_category: 'UNCLASSIFIED', task_summary: taskSummary, customer_info: CUSTOMER },
    },
    instructions: retryCount === undefined ? {} : { failure_handling_strategy: { retry_count: retryCount } },
  });
}

/** Roles, words and tool calls of a request's messages, for comparing what a model was sent. */
function transcript(messages: ChatMessage[]): string[] {
  return messages.map((message) => {
    const calls = (message.tool_calls ?? []).map((call) => `${call.function.name}(${call.function.arguments})`);
    return [message.role, message.content ?? '', ...calls].filter((part) => part !== '').join(': ');
  });
}

describe('model agents: seed 002 with a scripted model behind triage, sales and issues and repairs', () => {
  let rig: BatonRig;
  let model: ScriptedModelServer;
  let traces: OtlpReceiver;
  let refundTaskId = '';
  let ledger: RecordCollector;
  let replies: RecordCollector;
  let triageDlq: RecordCollector;
  let humanInbox: RecordCollector;
  let gateway: ServiceProcess;
  const attempts = new Map<string, number>();
  // The moment the SIGKILL test kills issues and repairs: after execute_refund ran, before commit.
  let killPoint: (() => void) | undefined;
  const atKillPoint = new Promise<void>((resolve) => (killPoint = resolve));
  let releaseHeld: (reply: ModelReply) => void = () => undefined;
  const held = new Promise<ModelReply>((resolve) => (releaseHeld = resolve));

  /** The seed's conversations, each answered from what the request holds, so a restart replays them. */
  function script(request: ModelRequest): ModelReply {
    const agent = agentOf(request);
    const opening = openingWords(request);
    const result = lastToolResult(request);
    const seen = (attempts.get(opening) ?? 0) + 1;
    attempts.set(opening, seen);
    if (opening === FLAKY) {
      // A rate limit, then no answer within the timeout, then an answer.
      if (seen === 1) return { status: 429, headers: { 'retry-after-ms': '50' } };
      if (seen === 2) return { hold: held };
      return { text: "Hi, I'm ACME's assistant. How can I help?" };
    }
    if (opening === DOWN) {
      // Down for longer than one handling's retries of the call: the engine retries the handoff.
      if (seen <= 6) return { status: 503, headers: { 'retry-after-ms': '10' } };
      return { text: 'We are open on Sundays from 10 to 4.' };
    }
    if (opening === LOOPING) return { toolCalls: [{ name: 'lookup_order', arguments: { order: 'latest' } }] };
    if (opening === MANAGER) return { toolCalls: [{ name: 'escalate_to_human' }] };
    if (agent === 'triage') {
      return opening === PURCHASE
        ? { toolCalls: [{ name: 'transfer_to_sales_agent' }] }
        : { toolCalls: [{ name: 'transfer_to_issues_and_repairs_agent' }] };
    }
    if (agent === 'sales') return { text: 'Roadrunners giving you trouble? ACME Rocket Skates will do it.' };
    const item = opening === KILLED ? 'skates' : 'shoes';
    switch (result?.tool) {
      case 'transfer_to_issues_and_repairs_agent':
        // The refund conversation first tries a tool the agent does not have.
        return opening === REFUND
          ? { toolCalls: [{ name: 'find_item', arguments: { query: item } }] }
          : { toolCalls: [{ name: 'look_up_item', arguments: { search_query: item } }] };
      case 'find_item':
        return { toolCalls: [{ name: 'look_up_item', arguments: { search_query: item } }] };
      case 'look_up_item':
        return { toolCalls: [{ name: 'execute_refund', arguments: { item_id: result.content, reason: 'too small' } }] };
      case 'execute_refund':
        if (opening === KILLED && killPoint !== undefined) {
          killPoint();
          killPoint = undefined;
          return { hold: held };
        }
        return { text: 'Your refund has been successfully processed!' };
      default:
        return { text: 'Could you tell me more?' };
    }
  }

  const requestsOf = (agent: Agent, opening: string) =>
    model.requests.filter((request) => agentOf(request) === agent && openingWords(request) === opening);

  const refunds = (taskId: string): LedgerEntry[] =>
    ledger.records
      .filter((record) => record.key === taskId)
      .map((record) => parseLedgerEntry(record.value as Buffer))
      .filter((entry) => entry.effect === 'execute_refund');

  const replyFrom = (agentId: string, taskId: string) =>
    waitFor(async () => (await rig.handoffs(replies, taskId)).find((reply) => reply.metadata.sender_id === agentId), {
      description: `${agentId}'s reply to the user`,
      timeoutMs: FLOW_TIMEOUT_MS,
    });

  beforeAll(async () => {
    model = await startScriptedModelServer(script);
    traces = await startOtlpReceiver();
    rig = await startBatonRig({
      name: 'model-team',
      agents: ['triage-agent', 'sales-agent', 'issues-and-repairs-agent', 'human-agent'],
      serviceEnv: () => ({
        BATON_MODEL: 'openai-compatible:scripted-gpt',
        BATON_MODEL_BASE_URL: model.baseUrl,
        BATON_MODEL_TIMEOUT_MS: '1500',
        BATON_MODEL_MAX_RETRIES: '3',
        BATON_MODEL_MAX_STEPS: String(MAX_STEPS),
        OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      }),
    });
    ledger = await rig.collect(rig.topics.ledger);
    replies = await rig.collect(rig.topics.userReplies);
    triageDlq = await rig.collect(`${rig.topics.agentInbox(TRIAGE)}.dlq`);
    humanInbox = await rig.collect(rig.topics.agentInbox(HUMAN));
    gateway = await rig.addProcess('gateway', 'services/gateway/src/main.ts', {
      BATON_API_KEYS: `viewer:${VIEWER_TOKEN}:viewer`,
    });
  });

  afterAll(async () => {
    releaseHeld({ text: 'too late' });
    const exitCodes = await rig?.stop();
    await model?.close();
    await traces?.close();
    // Issues and repairs' first instance was SIGKILLed; every other process drained and exited 0.
    const { ['issues-and-repairs-agent']: killed, ...rest } = exitCodes;
    expect([killed, Object.values(rest).every((code) => code === 0)], JSON.stringify(exitCodes)).toEqual([null, true]);
  });

  it('says which model each agent decides with', () => {
    for (const agent of ['triage-agent', 'sales-agent', 'issues-and-repairs-agent']) {
      const service = rig.services[agent] as ServiceProcess;
      expect(service.logs.find((line) => line.event === 'model.configured')).toMatchObject({
        provider: 'openai-compatible',
        model: 'scripted-gpt',
        server: model.baseUrl,
      });
    }
  });

  it('refunds the shoes: triage → issues and repairs (look_up_item, execute_refund) → reply, the conversation intact', async () => {
    const taskId = uniqueName('refund');
    refundTaskId = taskId;
    const request = userRequest(taskId, 'A pair of shoes I bought. They are too small and no fix will do.', [
      said('user', REFUND),
      said(TRIAGE, "I can help with that! Could I ask what item you're seeking a refund for?"),
    ]);
    await rig.publisher.publish(rig.topics.inbound, request);

    const reply = await replyFrom(ISSUES, taskId);
    expect(reply.payload.data).toMatchObject({
      event_type: 'AGENT_REPLY',
      message: 'Your refund has been successfully processed!',
    });
    // The item look_up_item found, as its result went back to the model.
    const itemId = requestsOf('issues', REFUND)
      .map((sent) => lastToolResult(sent))
      .find((result) => result?.tool === 'look_up_item')?.content;
    expect(itemId).toMatch(/^item_\d{9}$/);
    const refund = await waitFor(() => refunds(taskId)[0], { description: 'the refund in the ledger' });
    expect(refund).toMatchObject({
      agent_id: ISSUES,
      args: { item_id: itemId, reason: 'too small' },
      tool_call: { position: '2.0', result: 'success' },
    });

    // What each agent's model was sent: triage the customer's words; issues and repairs those and
    // triage's transfer; its later calls its own tool calls and results, the unknown tool's error too.
    const conversation = [
      `user: ${REFUND}`,
      "assistant: I can help with that! Could I ask what item you're seeking a refund for?",
      'user: A pair of shoes I bought. They are too small and no fix will do.',
    ];
    expect(requestsOf('triage', REFUND).map((sent) => transcript(sent.messages))).toEqual([
      [`system: ${requestsOf('triage', REFUND)[0]?.system}`, ...conversation],
    ]);
    const atIssues = requestsOf('issues', REFUND).map((sent) => transcript(sent.messages.slice(1)));
    const handedOver = [
      ...conversation,
      'assistant: transfer_to_issues_and_repairs_agent({})',
      'tool: Transferred to issues_and_repairs_agent. Adopt persona immediately.',
    ];
    expect(atIssues).toEqual([
      handedOver,
      [
        ...handedOver,
        'assistant: find_item({"query":"shoes"})',
        'tool: unknown tool "find_item"; the tools are: look_up_item, execute_refund, transfer_back_to_triage',
      ],
      [
        ...handedOver,
        'assistant: find_item({"query":"shoes"})',
        'tool: unknown tool "find_item"; the tools are: look_up_item, execute_refund, transfer_back_to_triage',
        'assistant: look_up_item({"search_query":"shoes"})',
        `tool: ${itemId}`,
      ],
      [
        ...handedOver,
        'assistant: find_item({"query":"shoes"})',
        'tool: unknown tool "find_item"; the tools are: look_up_item, execute_refund, transfer_back_to_triage',
        'assistant: look_up_item({"search_query":"shoes"})',
        `tool: ${itemId}`,
        `assistant: execute_refund({"item_id":"${itemId}","reason":"too small"})`,
        'tool: success',
      ],
    ]);
    expect(requestsOf('issues', REFUND)[0]?.tools.map((tool) => tool.function.name)).toEqual([
      'look_up_item',
      'execute_refund',
      'transfer_back_to_triage',
    ]);
    // The reply carries the whole conversation, for the customer's next message to bring back.
    expect(reply.context.user_interaction_history?.map((entry) => `${entry.type}/${entry.sender}`)).toEqual([
      'CHAT_MESSAGE/user',
      `CHAT_MESSAGE/${TRIAGE}`,
      'CHAT_MESSAGE/user',
      `TOOL_CALL/${TRIAGE}`,
      `TOOL_RESULT/${TRIAGE}`,
      `TOOL_CALL/${ISSUES}`,
      `TOOL_RESULT/${ISSUES}`,
      `TOOL_CALL/${ISSUES}`,
      `TOOL_RESULT/${ISSUES}`,
      `TOOL_CALL/${ISSUES}`,
      `TOOL_RESULT/${ISSUES}`,
      `CHAT_MESSAGE/${ISSUES}`,
    ]);
    expect(reply.context.previous_actions.map((action) => action.action_type)).toEqual([
      'TRANSFER_TO_ISSUES_AND_REPAIRS_AGENT',
      'REPLY_TO_USER',
    ]);
    expect(refunds(taskId)).toHaveLength(1);
  });

  it("traces the refund as one trace: each agent's model calls and tool calls are children of its handling", async () => {
    const handling = (service: string) =>
      waitFor(
        () =>
          traces.spans.find(
            (span) =>
              span.serviceName === service &&
              span.name === 'handle TASK_TRANSFER' &&
              span.attributes['baton.task_id'] === refundTaskId,
          ),
        { description: `${service}'s handle span of the refund`, timeoutMs: FLOW_TIMEOUT_MS },
      );
    const [atTriage, atIssues] = await Promise.all([handling(`agent.${TRIAGE}`), handling(`agent.${ISSUES}`)]);
    expect(atIssues.traceId).toBe(atTriage.traceId);
    const modelAndTools = (parent: ReceivedSpan) =>
      traces.spans
        .filter((span) => span.parentSpanId === parent.spanId && /^(chat|execute_tool) /.test(span.name))
        .map((span) => `${span.name}${span.statusCode === 2 ? ' (error)' : ''}`)
        .sort();
    await waitFor(() => modelAndTools(atIssues).length === 7, {
      description: "issues and repairs' model and tool spans",
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(modelAndTools(atTriage)).toEqual(['chat scripted-gpt', 'execute_tool transfer_to_issues_and_repairs_agent']);
    expect(modelAndTools(atIssues)).toEqual([
      'chat scripted-gpt',
      'chat scripted-gpt',
      'chat scripted-gpt',
      'chat scripted-gpt',
      'execute_tool execute_refund',
      'execute_tool find_item (error)',
      'execute_tool look_up_item',
    ]);
    const chat = traces.spans.find(
      (span) => span.parentSpanId === atIssues.spanId && span.name === 'chat scripted-gpt',
    );
    expect(chat).toMatchObject({
      kind: 3,
      traceId: atTriage.traceId,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai-compatible',
        'gen_ai.request.model': 'scripted-gpt',
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.output_tokens': 20,
      },
    });
    const refund = traces.spans.find(
      (span) => span.parentSpanId === atIssues.spanId && span.name === 'execute_tool execute_refund',
    );
    expect(refund?.attributes).toMatchObject({
      'gen_ai.tool.name': 'execute_refund',
      'gen_ai.tool.call.id': expect.any(String),
    });
    // Nothing of the conversation is in a span: it is personal data.
    expect(JSON.stringify(traces.spans)).not.toContain('too small');
  });

  it('hands a purchase to sales, which answers with the conversation it was handed', async () => {
    const taskId = uniqueName('purchase');
    await rig.publisher.publish(rig.topics.inbound, userRequest(taskId, PURCHASE));

    const reply = await replyFrom(SALES, taskId);
    expect(reply.payload.data).toMatchObject({
      message: 'Roadrunners giving you trouble? ACME Rocket Skates will do it.',
    });
    expect(requestsOf('sales', PURCHASE).map((sent) => transcript(sent.messages.slice(1)))).toEqual([
      [
        `user: ${PURCHASE}`,
        'assistant: transfer_to_sales_agent({})',
        'tool: Transferred to sales_agent. Adopt persona immediately.',
      ],
    ]);
    expect(requestsOf('sales', PURCHASE)[0]?.tools.map((tool) => tool.function.name)).toEqual([
      'execute_order',
      'transfer_back_to_triage',
    ]);
    // Triage's transfer tool tells its model what sales is: triage's own words, then the card the
    // sales agent registered.
    const offered = requestsOf('triage', PURCHASE)[0]?.tools.find(
      (tool) => tool.function.name === 'transfer_to_sales_agent',
    );
    expect(offered?.function.description).toBe(
      'Use for anything sales or buying related.\n' +
        'Hands the conversation to SalesAgent: Anything sales or buying related: a language model talks the customer ' +
        'into an order. Its skills: execute_order (Places an order, recorded once in the ledger); ' +
        'transfer_back_to_triage (Hands anything outside sales back to triage).',
    );
  });

  it('retries a rate limit (429) and a model that does not answer in time, then replies', async () => {
    const taskId = uniqueName('flaky');
    await rig.publisher.publish(rig.topics.inbound, userRequest(taskId, FLAKY));

    const reply = await replyFrom(TRIAGE, taskId);
    expect(reply.payload.data).toMatchObject({ message: "Hi, I'm ACME's assistant. How can I help?" });
    expect(requestsOf('triage', FLAKY)).toHaveLength(3);
    const triage = rig.services['triage-agent'] as ServiceProcess;
    expect(
      triage.logs.filter((line) => line.msg === 'model call failed; retrying').map((line) => [line.code, line.retry]),
    ).toEqual([
      ['MODEL_UNAVAILABLE', 1],
      ['MODEL_UNAVAILABLE', 2],
    ]);
    expect(triageDlq.records.filter((record) => record.key === taskId)).toEqual([]);
  });

  it('waits out a provider that is down for longer than its call retries, without using up retry_count', async () => {
    const taskId = uniqueName('down');
    // retry_count 0: a failure that counted would dead-letter the handoff at once.
    await rig.publisher.publish(rig.topics.inbound, userRequest(taskId, DOWN, [], 0));

    const reply = await replyFrom(TRIAGE, taskId);
    expect(reply.payload.data).toMatchObject({ message: 'We are open on Sundays from 10 to 4.' });
    // 4 calls (the first and 3 retries) in the first handling, 3 in the engine's retry of it.
    expect(requestsOf('triage', DOWN)).toHaveLength(7);
    expect(triageDlq.records.filter((record) => record.key === taskId)).toEqual([]);
    // Nothing was dead-lettered, yet the overview says triage's model was failing: its heartbeats
    // carried the failed calls, the six of this conversation at least, within the minute.
    const failedCalls = (detail: string) => Number(/MODEL_UNAVAILABLE (\d+)/.exec(detail)?.[1] ?? 0);
    const failing = await waitFor(
      async () => {
        const answer = await fetch(`${gateway.address}/v1/overview`, {
          headers: { authorization: `Bearer ${VIEWER_TOKEN}` },
        });
        const overview = (await answer.json()) as { attention: { kind: string; subject: string; detail: string }[] };
        return overview.attention.find(
          (item) => item.kind === 'agent_failing' && item.subject === TRIAGE && failedCalls(item.detail) >= 6,
        );
      },
      { description: "triage's failing model on the overview", timeoutMs: 20_000 },
    );
    expect(failing.detail).toMatch(/^what it depends on is failing, in the last minute: MODEL_UNAVAILABLE \d+$/);
  });

  it("escalates to the human agent with the customer's identity, words and the conversation", async () => {
    const taskId = uniqueName('manager');
    await rig.publisher.publish(rig.topics.inbound, userRequest(taskId, MANAGER));

    const escalation = await waitFor(async () => (await rig.handoffs(humanInbox, taskId))[0], {
      description: 'the escalation in the human agent inbox',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(escalation.metadata).toMatchObject({ sender_id: TRIAGE, recipient_id: HUMAN });
    expect(escalation.payload).toEqual({
      handoff_type: 'ESCALATION',
      data: {
        issue_category: 'HUMAN_REQUESTED',
        severity: 'MEDIUM',
        customer_info: CUSTOMER,
        technical_details: { symptoms: MANAGER },
      },
    });
    expect(escalation.context.user_interaction_history?.map((entry) => [entry.type, entry.content])).toEqual([
      ['CHAT_MESSAGE', MANAGER],
      ['TOOL_CALL', '{}'],
      ['TOOL_RESULT', 'Transferred to human_agent. Adopt persona immediately.'],
    ]);
    expect(escalation.context.previous_actions.map((action) => action.action_type)).toEqual(['ESCALATE_TO_HUMAN']);
  });

  it('dead-letters a model that keeps calling an unknown tool, with MODEL_STEP_LIMIT', async () => {
    const taskId = uniqueName('looping');
    await rig.publisher.publish(rig.topics.inbound, userRequest(taskId, LOOPING));

    const letter = await waitFor(() => triageDlq.records.find((record) => record.key === taskId), {
      description: 'the dead letter of the looping task',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    expect(letter.headers).toMatchObject({ 'baton.dlq.error.code': 'MODEL_STEP_LIMIT', 'baton.dlq.attempts': '1' });
    const sent = requestsOf('triage', LOOPING);
    expect(sent).toHaveLength(MAX_STEPS);
    expect(transcript(sent[1]?.messages ?? []).slice(-2)).toEqual([
      'assistant: lookup_order({"order":"latest"})',
      'tool: unknown tool "lookup_order"; the tools are: transfer_to_issues_and_repairs_agent, transfer_to_sales_agent, escalate_to_human',
    ]);
  });

  it('records the refund once when issues and repairs is SIGKILLed after execute_refund ran, before its commit', async () => {
    const taskId = uniqueName('killed');
    await rig.publisher.publish(rig.topics.inbound, userRequest(taskId, KILLED));

    await atKillPoint;
    const first = rig.services['issues-and-repairs-agent'] as ServiceProcess;
    expect(await first.stop('SIGKILL')).toBeNull();
    await rig.addInstance('issues-and-repairs-agent', 'issues-and-repairs-agent-2');

    await replyFrom(ISSUES, taskId);
    const refund = await waitFor(() => refunds(taskId)[0], { description: 'the refund in the ledger' });
    expect(refund).toMatchObject({
      args: { item_id: expect.stringMatching(/^item_\d{9}$/) },
      tool_call: { position: '1.0' },
    });
    // The model was asked again after the restart: look_up_item and execute_refund a second time...
    expect(requestsOf('issues', KILLED).filter((sent) => lastToolResult(sent)?.tool === 'execute_refund')).toHaveLength(
      2,
    );
    // ...and the ledger holds the one refund of the transaction that committed.
    const answered = (await rig.handoffs(replies, taskId)).filter((reply) => reply.metadata.sender_id === ISSUES);
    expect([refunds(taskId).length, answered.length]).toEqual([1, 1]);
  }, 120_000);
});
