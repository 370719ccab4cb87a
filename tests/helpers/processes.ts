import type { ChildProcess } from 'node:child_process';
import { relative } from 'node:path';
import { expect } from 'vitest';
import { recordChild, runEnv } from '../../scripts/test-tools/processes.mjs';

const root = new URL('../..', import.meta.url).pathname;

/**
 * Notes a child this test file started (server, wrangler, browser), so the leak check after the
 * file, and the one after the run, can prove it was stopped. `group`: it leads its own process
 * group (spawned detached), and a kill of the group takes its children with it.
 */
export function track(child: Pick<ChildProcess, 'pid'>, what: string, options: { group?: boolean } = {}): void {
  const file = expect.getState().testPath;
  recordChild(child, file ? `${what}, started by ${relative(root, file)}` : what, options);
}

/** What a spawned child's explicit environment must carry for the leak checks to see it and its children. */
export const trackedEnv = (): Record<string, string> => runEnv();
