import type { Tool } from '../tools/types.js';
import type { McpServerConfig } from './config.js';
import type { McpConnections } from './connections.js';
import { mcpToolName, normalizeInputSchema, toolPassesFilter } from './naming.js';
import type { McpCallResult, McpConnection } from './types.js';

/** Credentials must not reach the model through an error text (Hermes' _sanitize_error). */
const CREDENTIAL =
  /(?:ghp_[A-Za-z0-9_]{1,255}|sk-[A-Za-z0-9_-](?:\.?[A-Za-z0-9_-]){0,254}|Bearer\s+\S+|(?:token|key|API_KEY|password|secret)=[^\s&,;"']{1,255})/gi;
export const sanitizeMcpError = (text: string) => text.replace(CREDENTIAL, '[REDACTED]');

/** The model's view of a call's result: `{"result": text}`, or `{"error": …}` for a tool error. */
export function formatMcpResult(result: McpCallResult): string {
  const text = result.content
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : b.type === 'resource' ? JSON.stringify(b.resource ?? b) : `[${b.type} content]`))
    .join('\n');
  if (result.isError) return JSON.stringify({ error: sanitizeMcpError(text || 'MCP tool returned an error') });
  if (!text && result.structuredContent !== undefined) return JSON.stringify({ result: JSON.stringify(result.structuredContent) });
  return JSON.stringify({ result: text });
}

export interface McpToolDeps {
  connections: McpConnections;
  home: string;
}

/**
 * The tools of one connected server under Hermes' names, filtered by `tools.include/exclude`.
 * Two tools that sanitise to one name are both left out (which one the model meant is unknowable).
 */
export function serverTools(config: McpServerConfig, conn: McpConnection, deps: McpToolDeps): Tool[] {
  const wanted = conn.tools.filter((t) => toolPassesFilter(t.name, config));
  const counts = new Map<string, number>();
  for (const t of wanted) counts.set(mcpToolName(config.name, t.name), (counts.get(mcpToolName(config.name, t.name)) ?? 0) + 1);
  return wanted
    .filter((t) => counts.get(mcpToolName(config.name, t.name)) === 1)
    .map((t) => {
      const name = mcpToolName(config.name, t.name);
      return {
        spec: { name, description: t.description || `MCP tool ${t.name} from ${config.name}`, parameters: normalizeInputSchema(t.inputSchema) },
        mcp: { server: config.name, parallelSafe: config.parallelSafe },
        async run(args, ctx) {
          if (config.trust === 'untrusted' && !t.readOnly && ctx.mcpTrustGate) {
            const refusal = await ctx.mcpTrustGate({ server: config.name, tool: t.name, toolName: name, args });
            if (refusal) return refusal;
          }
          try {
            return formatMcpResult(await deps.connections.call(deps.home, config.name, t.name, args, ctx.signal, t.readOnly));
          } catch (err) {
            return JSON.stringify({ error: sanitizeMcpError(`MCP call failed: ${String((err as Error)?.message ?? err)}`) });
          }
        },
      } satisfies Tool;
    });
}
