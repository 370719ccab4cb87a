import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../ports/errors.js';
import { newSessionId } from '../domain/session-rows.js';
import { jsonBody, queryFlag, queryParams } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { scopeByProfile } from '../domain/profile-scope.js';

const Name = z.string().trim().min(1, 'name must not be empty').max(128, 'name must be at most 128 characters');
const Color = z
  .string()
  .regex(/^#[0-9a-fA-F]{3,8}$/, 'color must be # and 3-8 hex digits')
  .nullable();
const ProjectId = z.string().min(1).max(64);

const CreateBody = z.object({ name: Name, color: Color.optional() });
const RenameBody = z.object({ project_id: ProjectId, name: Name.optional(), color: Color.optional() });
const DeleteBody = z.object({ project_id: ProjectId });
const ListQuery = z.object({ all_profiles: queryFlag });

/** Project groups. Deleting one leaves its sessions in place, unassigned. */
export function projectRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/projects', async (c) => {
    const q = queryParams(c, ListQuery);
    const active = (await requestHome(c, deps)).profile;
    const { items, ...fields } = scopeByProfile(await deps.projects.list(), active, q.all_profiles ?? false);
    return c.json({ projects: items, ...fields });
  });

  app.post('/api/projects/create', async (c) => {
    const b = await jsonBody(c, CreateBody);
    const project = await deps.projects.create({
      project_id: newSessionId(),
      name: b.name,
      color: b.color ?? null,
      profile: (await requestHome(c, deps)).profile,
      created_at: deps.clock.now(),
    });
    return c.json({ ok: true, project });
  });

  app.post('/api/projects/rename', async (c) => {
    const b = await jsonBody(c, RenameBody);
    const patch: { name?: string; color?: string | null } = {};
    if (b.name !== undefined) patch.name = b.name;
    if (b.color !== undefined) patch.color = b.color;
    const project = await deps.projects.update(b.project_id, patch);
    return c.json({ ok: true, project });
  });

  app.post('/api/projects/delete', async (c) => {
    const b = await jsonBody(c, DeleteBody);
    if (!(await deps.projects.delete(b.project_id))) throw new NotFound('Project not found');
    const unassigned = await deps.sessions.clearProject(b.project_id);
    return c.json({ ok: true, unassigned_sessions: unassigned });
  });

  return app;
}
