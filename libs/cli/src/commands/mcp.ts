import { once } from 'node:events';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { operatorMcpServer } from '@baton/operator-mcp';
import type { Command } from '../context.js';

/** The version the MCP server states at initialization. */
const MCP_SERVER_VERSION = '1.0.0';

/**
 * `baton mcp`: the operator's tools as an MCP server on stdin and stdout, for an assistant that
 * starts it as a local server. Each tool is a call of the gateway's API with this command's
 * credential (BATON_TOKEN or --token), so it may do what that credential may. Runs until its input
 * ends or Ctrl-C; stdout carries the protocol only, notes go to stderr.
 */
export const mcp: Command = async (context) => {
  const gateway = context.gateway();
  const server = operatorMcpServer((method, path, body) => gateway.request(method, path, body), MCP_SERVER_VERSION);
  await server.connect(new StdioServerTransport());
  context.note("baton MCP server on stdio with the operator's tools; Ctrl-C or the end of its input stops it");
  const ended = once(process.stdin, 'end');
  const interrupted = once(context.io.signal, 'abort');
  await Promise.race([ended, interrupted]);
  await server.close();
};
