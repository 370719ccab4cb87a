import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../../src/agent/config.js';
import { childToolNames, delegateTaskTool, delegateTasks } from '../../../src/agent/tools/delegate.js';

const delegation = (yaml: string) => parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} }).delegation;

describe('delegation config (config.yaml delegation.*)', () => {
  it("has Hermes' defaults when the block is absent", () => {
    expect(delegation('model: x\n')).toEqual({
      maxIterations: 50,
      maxConcurrentChildren: 3,
      maxSpawnDepth: 1,
      orchestratorEnabled: true,
      childTimeoutSeconds: null,
      subagentAutoApprove: false,
      model: null,
    });
  });

  it('reads each key, with its floors, and falls back per key on unusable values', () => {
    const d = delegation(
      'delegation:\n  max_iterations: 12\n  max_concurrent_children: 0\n  max_spawn_depth: 3\n  child_timeout_seconds: 5\n  subagent_auto_approve: "yes"\n  orchestrator_enabled: false\n  model: small-model\n',
    );
    expect(d).toEqual({
      maxIterations: 12,
      maxConcurrentChildren: 1,
      maxSpawnDepth: 3,
      orchestratorEnabled: false,
      childTimeoutSeconds: 30,
      subagentAutoApprove: true,
      model: 'small-model',
    });
    expect(delegation('delegation:\n  max_iterations: lots\n  child_timeout_seconds: 0\n  max_spawn_depth: -2\n')).toMatchObject({
      maxIterations: 50,
      childTimeoutSeconds: null,
      maxSpawnDepth: 1,
    });
    // A block that is not a mapping is ignored, not an error.
    expect(delegation('delegation: on\n').maxIterations).toBe(50);
  });
});

describe('delegate_task arguments', () => {
  it("has Hermes' name and parameters, and names the configured limits", () => {
    const { spec } = delegateTaskTool({ maxConcurrentChildren: 5, maxSpawnDepth: 2 });
    const params = spec.parameters as { properties: Record<string, any>; required: string[] };
    expect(spec.name).toBe('delegate_task');
    expect(Object.keys(params.properties)).toEqual(['goal', 'context', 'toolsets', 'tasks', 'role']);
    expect(params.required).toEqual([]);
    expect(params.properties.tasks.items.required).toEqual(['goal']);
    expect(Object.keys(params.properties.tasks.items.properties)).toEqual(['goal', 'context', 'toolsets', 'role']);
    expect(params.properties.role.enum).toEqual(['leaf', 'orchestrator']);
    expect(spec.description).toContain('up to 5 tasks');
    expect(spec.description).toContain('max_spawn_depth=2');
  });

  it('a goal is one task; tasks win over goal and inherit the top-level toolsets and role', () => {
    expect(delegateTasks({ goal: ' Fix it ', context: 'in src/', toolsets: ['file'] }, 3)).toEqual([
      { goal: 'Fix it', context: 'in src/', toolsets: ['file'], role: 'leaf' },
    ]);
    expect(
      delegateTasks(
        { goal: 'ignored', toolsets: ['web'], role: 'orchestrator', tasks: [{ goal: 'a' }, { goal: 'b', role: 'leaf', toolsets: ['terminal'] }] },
        3,
      ),
    ).toEqual([
      { goal: 'a', toolsets: ['web'], role: 'orchestrator' },
      { goal: 'b', toolsets: ['terminal'], role: 'leaf' },
    ]);
    // A batch sent as a JSON string, as some models do.
    expect(delegateTasks({ tasks: '[{"goal": "s"}]' }, 3)).toEqual([{ goal: 's', role: 'leaf' }]);
  });

  it('says what is wrong with a call', () => {
    expect(delegateTasks({}, 3)).toBe("Provide either 'goal' (single task) or 'tasks' (batch).");
    expect(delegateTasks({ tasks: [{ goal: 'a' }, { context: 'no goal' }] }, 3)).toBe("Task 1 is missing a 'goal'.");
    expect(delegateTasks({ tasks: [{ goal: 'a' }, 'b'] }, 3)).toBe('Task 1 must be an object.');
    expect(delegateTasks({ tasks: '[not json' }, 3)).toMatch(/must be a JSON array/);
    expect(delegateTasks({ tasks: [{ goal: 'a' }, { goal: 'b' }] }, 1)).toMatch(/^Too many tasks: 2 provided, but max_concurrent_children is 1\./);
  });

  it("children never get the blocked tools; toolsets narrow the rest, tools outside Hermes' toolsets stay", () => {
    const parent = ['terminal', 'read_file', 'write_file', 'todo', 'memory', 'clarify', 'delegate_task', 'mcp_github_search'];
    expect(childToolNames(parent, {}, false)).toEqual(['terminal', 'read_file', 'write_file', 'todo', 'mcp_github_search']);
    expect(childToolNames(parent, { toolsets: ['file'] }, false)).toEqual(['read_file', 'write_file', 'mcp_github_search']);
    expect(childToolNames(parent, { toolsets: ['terminal', 'memory'] }, true)).toEqual(['terminal', 'delegate_task', 'mcp_github_search']);
  });
});
