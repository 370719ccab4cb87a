import type { Project } from '../api/client.js';
import { projectsApi } from '../api/projects.js';
import { emit } from '../events.js';
import { rowOf, type ActionContext } from './session-actions.js';

/**
 * New chat inside a project (the chip's `+`, or New chat while the project filter is on): the
 * session is created at once with the project's default workspace and model, filed in the
 * project, and opened.
 */
export async function newChatInProject(ctx: ActionContext, project: Project): Promise<string | null> {
  try {
    const session = await projectsApi.newSession(project);
    ctx.sessions.insert(rowOf(session));
    emit(ctx.host, 'hermes-open-session', { sessionId: session.session_id });
    return session.session_id;
  } catch (err) {
    ctx.ui?.notify((err as Error).message, 'error');
    return null;
  }
}
