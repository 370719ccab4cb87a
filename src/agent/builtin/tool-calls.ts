import type { ToolCall } from '../messages.js';

/** Joins streamed tool-call fragments (by index) into whole calls, in the model's order. */
export class ToolCallAssembler {
  #calls = new Map<number, { id: string; name: string; args: string }>();

  add(fragment: { index: number; id?: string; name?: string; arguments?: string }): { started: boolean; name: string } {
    let call = this.#calls.get(fragment.index);
    const started = !call;
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.#calls.set(fragment.index, call);
    }
    if (fragment.id) call.id = fragment.id;
    // Most servers send the name once; some repeat it on every fragment, a few split it.
    if (fragment.name && fragment.name !== call.name) call.name += fragment.name;
    if (fragment.arguments) call.args += fragment.arguments;
    return { started, name: call.name };
  }

  get size(): number {
    return this.#calls.size;
  }

  calls(): ToolCall[] {
    return [...this.#calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, c]) => ({
        id: c.id || `call_${index}_${crypto.randomUUID().slice(0, 8)}`,
        type: 'function' as const,
        function: { name: c.name, arguments: c.args || '{}' },
      }));
  }
}

/** Parses a call's JSON arguments; a model that wrote broken JSON gets told so. */
export function parseArguments(call: ToolCall): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  try {
    const value: unknown = JSON.parse(call.function.arguments || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, args: value as Record<string, unknown> };
    return { ok: false, error: 'Tool arguments must be a JSON object' };
  } catch (err) {
    return { ok: false, error: `Tool arguments are not valid JSON: ${(err as Error).message}` };
  }
}
