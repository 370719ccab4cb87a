import { Hono, type Context } from 'hono';
import { requestHome } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { jsonBody, queryParams } from '../http/validate.js';
import { BadRequest, NotFound } from '../ports/errors.js';

const Profile = z.object({ profile: z.string().max(64).optional() }).passthrough();

const Seconds = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, 'must be a number of seconds')
      .transform(Number),
  ])
  .pipe(z.number().positive().max(86_400));
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
const HeaderValue = z
  .string()
  .max(8192)
  .regex(/^[^\r\n\0]*$/, 'header values cannot hold line breaks');
const EnvValue = z
  .string()
  .max(32_768)
  .regex(/^[^\0]*$/, 'environment values cannot hold NUL');

const ServerBody = z.object({
  url: z.string().trim().max(2048).optional(),
  headers: z.record(z.string(), HeaderValue).optional(),
  command: z
    .string()
    .trim()
    .max(4096)
    .regex(/^[^\0\r\n]*$/, 'command cannot hold line breaks')
    .optional(),
  args: z.union([z.array(z.string().max(8192)).max(256), z.string().max(8192)]).optional(),
  env: z.record(z.string(), EnvValue).optional(),
  timeout: Seconds.nullish(),
  connect_timeout: Seconds.nullish(),
  enabled: z.boolean().optional(),
});

/** The server name from the path: what Hermes can hold as a YAML key and the UI can show. */
function serverName(c: Context): string {
  let name: string;
  try {
    name = decodeURIComponent(c.req.param('name') ?? '');
  } catch {
    throw new BadRequest('name is not valid percent-encoding');
  }
  name = name.trim();
  if (!name) throw new BadRequest('name is required');
  if (name.length > 128) throw new BadRequest('name must be at most 128 characters');
  if (/[\u0000-\u001f\u007f/]/.test(name)) throw new BadRequest('name cannot hold control characters or /');
  return name;
}

/**
 * `/api/mcp/*` in the incumbent's shapes: the servers of a profile's config.yaml with their
 * status and tool count, the tools of live connections, and edits of `mcp_servers`. Reads never
 * start a server. `?profile=<name>` picks the Hermes profile (default: the browser's).
 */
export function mcpRoutes(deps: AppDeps) {
  const app = new Hono();
  const mcp = () => {
    if (!deps.mcp) throw new NotFound('MCP servers are not available on this server');
    return deps.mcp;
  };

  // `?profile=` names one; else the browser's profile.
  const profileOf = async (c: Context) => queryParams(c, Profile).profile ?? (await requestHome(c, deps)).profile;

  app.get('/api/mcp/servers', async (c) => c.json(await mcp().servers(await profileOf(c))));
  app.get('/api/mcp/tools', async (c) => c.json(await mcp().tools(await profileOf(c))));

  app.put('/api/mcp/servers/:name', async (c) => {
    const name = serverName(c);
    const profile = await profileOf(c);
    const b = await jsonBody(c, ServerBody);
    for (const k of Object.keys(b.headers ?? {}))
      if (!HEADER_NAME.test(k)) throw new BadRequest(`headers: ${JSON.stringify(k)}: header names are letters, digits and -`);
    for (const k of Object.keys(b.env ?? {}))
      if (!ENV_NAME.test(k)) throw new BadRequest(`env: ${JSON.stringify(k)}: environment names are letters, digits and _`);
    const url = b.url?.trim();
    if (url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new BadRequest('url must be an http(s) URL');
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new BadRequest('url must be an http(s) URL');
    } else if (!b.command) {
      throw new BadRequest('url or command is required');
    }
    const args = b.args === undefined ? undefined : Array.isArray(b.args) ? b.args : [b.args];
    return c.json(
      await mcp().upsert(profile, name, {
        ...(url ? { url, ...(b.headers ? { headers: b.headers } : {}) } : { command: b.command!, ...(args ? { args } : {}), ...(b.env ? { env: b.env } : {}) }),
        ...(b.timeout != null ? { timeout: Math.round(b.timeout) } : {}),
        ...(b.connect_timeout != null ? { connect_timeout: Math.round(b.connect_timeout) } : {}),
        ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
      }),
    );
  });

  app.patch('/api/mcp/servers/:name', async (c) => {
    const name = serverName(c);
    const profile = await profileOf(c);
    const b: Record<string, unknown> = await jsonBody(c, z.object({}).passthrough());
    if (b.enabled === undefined) throw new BadRequest('enabled field is required');
    if (typeof b.enabled !== 'boolean') throw new BadRequest('enabled must be true or false');
    return c.json(await mcp().setEnabled(profile, name, b.enabled));
  });

  app.delete('/api/mcp/servers/:name', async (c) => {
    const name = serverName(c);
    return c.json(await mcp().remove(await profileOf(c), name));
  });

  return app;
}
