// What bench/mcp.bench.mjs needs, bundled by it: our MCP layer and the raw SDK client beside it.
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
export { NodeMcpConnector } from '../src/adapters/mcp/node-mcp-connector.js';
export { McpConnections } from '../src/agent/mcp/connections.js';
export { readServer } from '../src/agent/mcp/config.js';
export { serverTools } from '../src/agent/mcp/tools.js';
