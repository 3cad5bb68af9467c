/**
 * Baton operable from an assistant: the operator's actions as the tools of an MCP server, each a
 * call of the gateway's API with the caller's credential. `baton mcp` serves them over stdio; the
 * gateway serves them over Streamable HTTP at `/mcp`.
 */
export { operatorMcpServer, type GatewayCall, type GatewayCallError } from './operator-tools.js';
