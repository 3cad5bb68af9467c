import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A message of an OpenAI chat completion request, as the agents' provider sends it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** One request the server received. */
export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  tools: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  /** The system message: which agent asks. */
  system: string;
}

/**
 * What the scripted model answers: words, tool calls, an HTTP error, or nothing until `hold`
 * settles (a model that does not answer in time, or a moment a test acts in).
 */
export type ModelReply =
  | { text: string }
  | { toolCalls: { name: string; arguments?: Record<string, unknown> }[] }
  | { status: number; headers?: Record<string, string> }
  | { hold: Promise<ModelReply> };

export interface ScriptedModelServer {
  /** The OpenAI-compatible base URL: BATON_MODEL_BASE_URL. */
  readonly baseUrl: string;
  /** Every request received, in order. */
  readonly requests: ModelRequest[];
  close(): Promise<void>;
}

function chatCompletion(
  model: string,
  reply: { text: string } | { toolCalls: { name: string; arguments?: Record<string, unknown> }[] },
  id: number,
) {
  const calls = 'toolCalls' in reply ? reply.toolCalls : [];
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'text' in reply ? reply.text : null,
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call, index) => ({
                  id: `call_${id}_${index}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
                })),
              }),
        },
        finish_reason: calls.length === 0 ? 'stop' : 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/**
 * An OpenAI-compatible chat completions server for tests: no model runs on the test machines, so
 * `answer` scripts each reply from the request, and every request is kept for the test to read
 * what each agent's model was sent.
 */
export async function startScriptedModelServer(
  answer: (request: ModelRequest) => ModelReply | Promise<ModelReply>,
): Promise<ScriptedModelServer> {
  const requests: ModelRequest[] = [];
  let answered = 0;
  const reply = async (response: ServerResponse, request: ModelRequest, next: ModelReply): Promise<void> => {
    if ('hold' in next) return reply(response, request, await next.hold);
    if ('status' in next) {
      response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      response.end(JSON.stringify({ error: { message: `scripted ${next.status}`, type: 'scripted' } }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(chatCompletion(request.model, next, ++answered)));
  };
  const server = createServer((incoming, response) => {
    void (async () => {
      if (incoming.method !== 'POST' || incoming.url !== '/v1/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(await body(incoming)) as Omit<ModelRequest, 'system'>;
      const request: ModelRequest = {
        ...parsed,
        tools: parsed.tools ?? [],
        system: parsed.messages.find((message) => message.role === 'system')?.content ?? '',
      };
      requests.push(request);
      await reply(response, request, await answer(request));
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
