import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NodePrefillIo } from '../../src/adapters/platform/node-prefill.js';
import { prefillFileConfig, prefillSettings } from '../../src/agent/prefill-config.js';
import { loadPrefill } from '../../src/agent/prefill.js';

/** config.yaml's prefill keys (the incumbent's names), and how they merge under the variables. */
describe('config: prefill keys in config.yaml', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = '';
  });

  it('reads the four keys, Hermes’ legacy agent.prefill_messages_file, and clamps as for the variables', () => {
    const yaml = parse(
      'prefill_messages_file: notes.json\nwebui_prefill_messages_script: [python3, /opt/recall.py]\nwebui_prefill_messages_script_timeout: 90\nwebui_prefill_context_max_chars: 999999\n',
    );
    expect(prefillFileConfig(yaml)).toEqual({ file: 'notes.json', script: ['python3', '/opt/recall.py'], scriptTimeoutMs: 30_000, maxChars: 262_144 });
    expect(prefillFileConfig(parse('agent:\n  prefill_messages_file: old.json\n'))).toEqual({ file: 'old.json' });
    // What cannot be used counts as unset, so the default (or the variable) applies.
    expect(
      prefillFileConfig(parse('webui_prefill_messages_script: ""\nwebui_prefill_messages_script_timeout: soon\nwebui_prefill_context_max_chars: 1.5\n')),
    ).toEqual({});
  });

  it('a variable wins over its key; unset in both is the default', () => {
    const where = { configPath: '/srv/hermes/config.yaml' };
    const yaml = { file: 'a.json', script: 'recall', scriptTimeoutMs: 2000, maxChars: 50 };
    expect(prefillSettings({ script: 'env-recall', maxChars: 0 }, yaml, where)).toEqual({
      file: 'a.json',
      script: 'env-recall',
      scriptTimeoutMs: 2000,
      maxChars: 0,
      baseDir: '/srv/hermes',
    });
    expect(prefillSettings({}, undefined, where)).toEqual({ scriptTimeoutMs: 5000, maxChars: 12_000, baseDir: '/srv/hermes' });
  });

  it('`~` in a config.yaml path is the user’s home', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hermes-prefill-home-'));
    await writeFile(join(dir, 'p.json'), JSON.stringify([{ role: 'assistant', content: 'From home.' }]));
    const settings = prefillSettings({}, { file: '~/p.json' }, { configPath: '/nowhere/config.yaml', homeDir: dir });
    const context = await loadPrefill(settings, new NodePrefillIo({}));
    expect(context).toMatchObject({ status: 'loaded', label: 'p.json', messages: [{ role: 'assistant', content: 'From home.' }] });
  });
});
