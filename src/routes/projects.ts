import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotFound } from '../ports/errors.js';
import { newSessionId } from '../domain/session-rows.js';
import { jsonBody, queryFlag, queryParams } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { scopeByProfile } from '../domain/profile-scope.js';

// The incumbent's texts ("name required", "Invalid color format"); its clients show them as they are.
const Name = z.string({ error: 'name required' }).trim().min(1, 'name required').max(128, 'name must be at most 128 characters');
const Color = z.string().max(64).nullable();
/** Checked here so the answer is the incumbent's text alone (zod would prefix the field's name). */
function checkColor(color: string | null | undefined): void {
  if (color && !/^#[0-9a-fA-F]{3,8}$/.test(color)) throw new BadRequest('Invalid color format');
}
const ProjectId = z.string().min(1).max(64);

/** `profile`: the incumbent's clients may tag a project with a profile other than the active one. */
const CreateBody = z.object({ name: Name, color: Color.optional(), profile: z.string().trim().max(64).optional() });
const RenameBody = z.object({ project_id: ProjectId, name: Name.optional(), color: Color.optional() });
const DeleteBody = z.object({ project_id: ProjectId });
const ListQuery = z.object({ all_profiles: queryFlag });

/** A profile that exists here (`default` always does); else the incumbent's 400 "invalid profile". */
async function knownProfile(deps: AppDeps, name: string): Promise<string> {
  if (name === 'default') return name;
  const ok = await deps.homes.get(name).then(
    () => true,
    () => false,
  );
  if (!ok) throw new BadRequest('invalid profile');
  return name;
}

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
    checkColor(b.color);
    const project = await deps.projects.create({
      project_id: newSessionId(),
      name: b.name,
      color: b.color ?? null,
      profile: b.profile ? await knownProfile(deps, b.profile) : (await requestHome(c, deps)).profile,
      created_at: deps.clock.now(),
    });
    return c.json({ ok: true, project });
  });

  app.post('/api/projects/rename', async (c) => {
    const b = await jsonBody(c, RenameBody);
    checkColor(b.color);
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
