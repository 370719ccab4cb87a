import { describe, expect, it } from 'vitest';
import { autoAssignProject, BindingConflict, planBindings, projectDefaultWorkspace, projectWorkspaces } from '../../src/domain/project-bindings.js';
import type { Project } from '../../src/ports/project-store.js';

const project = (fields: Partial<Project> = {}): Project => ({ project_id: 'p', name: 'P', color: null, profile: 'default', created_at: 1, ...fields });

describe('project bindings (pure rules)', () => {
  it('reads the list first and falls back to the legacy single workspace', () => {
    expect(projectWorkspaces(project({ workspaces: ['/a', '/b'], workspace: '/legacy' }))).toEqual(['/a', '/b']);
    expect(projectWorkspaces(project({ workspace: '/legacy' }))).toEqual(['/legacy']);
    expect(projectWorkspaces(project({ workspaces: ['/a', '', 7 as unknown as string] }))).toEqual(['/a']);
    expect(projectWorkspaces(project())).toEqual([]);
  });

  it('the default workspace is the bound default, else the first one; a stale default is ignored', () => {
    expect(projectDefaultWorkspace(project({ workspaces: ['/a', '/b'], default_workspace: '/b' }))).toBe('/b');
    expect(projectDefaultWorkspace(project({ workspaces: ['/a', '/b'], default_workspace: '/gone' }))).toBe('/a');
    expect(projectDefaultWorkspace(project({ workspace: '/legacy' }))).toBe('/legacy');
    expect(projectDefaultWorkspace(project())).toBeNull();
  });

  it('plans nothing for an empty request', () => {
    expect(planBindings(project({ model: 'm', workspaces: ['/a'] }), {})).toEqual({ set: {}, unset: [] });
  });

  it('a default outside the list joins it; the legacy alias follows the first entry', () => {
    expect(planBindings(project({ workspace: '/legacy' }), { default_workspace: '/new' })).toEqual({
      set: { workspaces: ['/legacy', '/new'], workspace: '/legacy', default_workspace: '/new' },
      unset: [],
    });
  });

  it('contradictory requests name the field at fault', () => {
    expect(() => planBindings(project(), { workspaces: null, default_workspace: '/a' })).toThrow(BindingConflict);
    expect(() => planBindings(project(), { workspaces: ['/a'], workspace: '/b' })).toThrow(/^workspace: /);
    expect(() => planBindings(project(), { model_provider: 'x' })).toThrow(/^model_provider: /);
    expect(() => planBindings(project({ model: 'm' }), { model: null, model_provider: 'x' })).toThrow(/^model_provider: /);
  });

  it('auto-assign: the first auto-assign project of the same profile binding the workspace', () => {
    const projects = [
      project({ project_id: 'off', workspaces: ['/a'] }),
      project({ project_id: 'other-profile', workspaces: ['/a'], auto_assign: true, profile: 'work' }),
      project({ project_id: 'first', workspace: '/a', auto_assign: true, profile: null }),
      project({ project_id: 'second', workspaces: ['/a'], auto_assign: true }),
    ];
    expect(autoAssignProject(projects, '/a', null)).toBe('first');
    expect(autoAssignProject(projects, '/a', 'work')).toBe('other-profile');
    expect(autoAssignProject(projects, '/b', null)).toBeNull();
  });
});
