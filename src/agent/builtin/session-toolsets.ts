import { TOOLSET_OF } from '../tools/delegate.js';
import type { Tool } from '../tools/types.js';
import type { Session } from '../../shared/session.js';

/**
 * The session's toolset override (`enabled_toolsets`, set by POST /api/session/toolsets): only the
 * tools of those toolsets stay. A tool in no toolset (an MCP server's) is kept, as delegation
 * keeps it; no override (null, absent, not a list) leaves every tool.
 */
export function narrowToSessionToolsets(tools: Tool[], session: Session): void {
  const wanted = session.enabled_toolsets;
  if (!Array.isArray(wanted) || wanted.length === 0) return;
  const keep = new Set(wanted.filter((t): t is string => typeof t === 'string'));
  for (let i = tools.length - 1; i >= 0; i--) {
    const toolset = TOOLSET_OF[tools[i]!.spec.name];
    if (toolset !== undefined && !keep.has(toolset)) tools.splice(i, 1);
  }
}
