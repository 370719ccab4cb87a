import { Hono } from 'hono';
import { requestWorkspaces } from '../http/request-home.js';
import type { WorkspaceStore } from '../ports/workspace-store.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { AppError, BadRequest, NotFound } from '../ports/errors.js';
import { REASONING_EFFORTS } from '../agent/reasoning.js';
import { BindingConflict, planBindings, type BindRequest } from '../domain/project-bindings.js';
import { jsonBody } from '../http/validate.js';

/** A blank single value clears its axis, as the incumbent reads `""`. */
const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

const Path = z.string({ error: 'must be a path string' }).max(4096, 'must be at most 4096 characters');
const OptionalPath = Path.nullable().optional().transform(blankToNull);

const BindBody = z.object({
  project_id: z.string({ error: 'project_id is required' }).min(1, 'project_id is required').max(64),
  workspaces: z
    .array(Path, { error: 'workspaces must be a list of paths, or null to clear' })
    .max(64, 'workspaces: at most 64 entries')
    .nullable()
    .optional()
    // Blank entries are skipped, as the incumbent does.
    .transform((list) => (list === undefined || list === null ? list : list.map((p) => p.trim()).filter(Boolean))),
  default_workspace: OptionalPath,
  workspace: OptionalPath,
  auto_assign: z.boolean({ error: 'auto_assign must be true, false or null' }).nullable().optional(),
  model: z.string({ error: 'model must be a string or null' }).max(256, 'model must be at most 256 characters').nullable().optional().transform(blankToNull),
  model_provider: z
    .string({ error: 'model_provider must be a string or null' })
    .max(128, 'model_provider must be at most 128 characters')
    .nullable()
    .optional()
    .transform(blankToNull),
  reasoning_effort: z
    .string({ error: 'reasoning_effort must be a string or null' })
    .nullable()
    .optional()
    .transform((v, ctx) => {
      const blank = blankToNull(v);
      const value = typeof blank === 'string' ? blank.toLowerCase() : blank;
      if (value && !(REASONING_EFFORTS as readonly string[]).includes(value)) {
        ctx.addIssue({ code: 'custom', message: `reasoning_effort must be one of ${REASONING_EFFORTS.join(', ')}` });
        return z.NEVER;
      }
      return value;
    }),
});

const baseName = (path: string) => path.replace(/\/+$/, '').split('/').pop() || path;

/**
 * `POST /api/projects/bind`: a project's workspaces, default workspace, auto-assign flag, model
 * and reasoning effort. Everything is checked before anything is written, so a refused request
 * changes neither the project nor the saved workspace list.
 */
export function projectBindRoutes(deps: AppDeps) {
  const app = new Hono();

  /** The trusted-path check /api/session/new makes; a refusal names the field (400, whatever the check's status). */
  const resolve = async (path: string, field: string) => {
    try {
      return await deps.files.checkWorkspace(path);
    } catch (err) {
      if (err instanceof AppError && [400, 403, 404].includes(err.status)) throw new BadRequest(`${field}: ${err.message}`);
      throw err;
    }
  };

  app.post('/api/projects/bind', async (c) => {
    const b = await jsonBody(c, BindBody);
    const project = await deps.projects.get(b.project_id);
    if (!project) throw new NotFound('Project not found');
    const req: BindRequest = {};
    if (b.workspaces !== undefined) {
      req.workspaces = b.workspaces === null ? null : await Promise.all(b.workspaces.map((p, i) => resolve(p, `workspaces[${i}]`)));
    }
    if (b.workspace !== undefined) req.workspace = b.workspace === null ? null : await resolve(b.workspace, 'workspace');
    if (b.default_workspace !== undefined)
      req.default_workspace = b.default_workspace === null ? null : await resolve(b.default_workspace, 'default_workspace');
    for (const key of ['auto_assign', 'model', 'model_provider', 'reasoning_effort'] as const) {
      if (b[key] !== undefined) (req as Record<string, unknown>)[key] = b[key];
    }
    let plan: ReturnType<typeof planBindings>;
    try {
      plan = planBindings(project, req);
    } catch (err) {
      if (err instanceof BindingConflict) throw new BadRequest(err.message);
      throw err;
    }
    if (Array.isArray(plan.set.workspaces)) await register(deps, await requestWorkspaces(c, deps), plan.set.workspaces as string[]);
    const saved = await deps.projects.patchKeys(project.project_id, plan.set, plan.unset);
    return c.json({ ok: true, project: saved });
  });

  return app;
}

/**
 * Bound paths join the saved workspace list (so one outside the default root is bound in one
 * step). An empty saved list reads as Home, as GET /api/workspaces shows it, and Home is kept.
 */
async function register(deps: AppDeps, store: WorkspaceStore, paths: string[]): Promise<void> {
  const saved = await store.list();
  const list = saved.length ? saved : [{ path: deps.options.defaultWorkspace, name: 'Home' }];
  const fresh = paths.filter((p) => !list.some((w) => w.path === p));
  if (fresh.length) await store.save([...list, ...fresh.map((path) => ({ path, name: baseName(path) }))]);
}
