import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeSavedPrompts } from '../../src/adapters/platform/node-saved-prompts.js';
import { MemorySavedPrompts } from '../../src/adapters/storage/memory/memory-saved-prompts.js';
import type { SavedPrompt, SavedPromptStore } from '../../src/ports/saved-prompts.js';

const prompt = (id: string): SavedPrompt => ({ id, label: id.toUpperCase(), text: `text ${id}`, created_at: 1780000000.5 });

/** What every SavedPromptStore does, whatever keeps the list. */
function contract(name: string, make: () => Promise<{ store: SavedPromptStore; home: (n: string) => string }>) {
  describe(`SavedPromptStore: ${name}`, () => {
    let store: SavedPromptStore;
    let home: (n: string) => string;
    beforeAll(async () => ({ store, home } = await make()));

    it('starts empty, keeps changes in order, and keeps each home apart', async () => {
      expect(await store.list(home('a'))).toEqual([]);
      await store.change(home('a'), (l) => [...l, prompt('one')]);
      await store.change(home('a'), (l) => [...l, prompt('two')]);
      await store.change(home('b'), (l) => [...l, prompt('other')]);
      expect((await store.list(home('a'))).map((p) => p.id)).toEqual(['one', 'two']);
      expect((await store.list(home('b'))).map((p) => p.id)).toEqual(['other']);
    });

    it('runs concurrent changes one after another (none is lost)', async () => {
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.change(home('c'), (l) => [...l, prompt(`p${i}`)])));
      expect(await store.list(home('c'))).toHaveLength(20);
    });

    it('a change that throws writes nothing', async () => {
      await expect(
        store.change(home('a'), () => {
          throw new Error('limit');
        }),
      ).rejects.toThrow('limit');
      expect((await store.list(home('a'))).map((p) => p.id)).toEqual(['one', 'two']);
    });

    it('a list handed out is a copy', async () => {
      const list = await store.list(home('a'));
      list.pop();
      expect(await store.list(home('a'))).toHaveLength(2);
    });
  });
}

let dir = '';
afterAll(() => rm(dir, { recursive: true, force: true }));

contract('memory', async () => ({ store: new MemorySavedPrompts(), home: (n) => `/homes/${n}` }));
contract('fs', async () => {
  dir = await mkdtemp(join(tmpdir(), 'hermes-prompts-'));
  return { store: new NodeSavedPrompts(), home: (n) => join(dir, n) };
});

describe('NodeSavedPrompts file', () => {
  it("is the incumbent's webui/saved_prompts.json, indent=2", async () => {
    const home = await mkdtemp(join(tmpdir(), 'hermes-prompts-'));
    try {
      await new NodeSavedPrompts().change(home, () => [prompt('x')]);
      expect(await readFile(join(home, 'webui', 'saved_prompts.json'), 'utf8')).toBe(
        '[\n  {\n    "id": "x",\n    "label": "X",\n    "text": "text x",\n    "created_at": 1780000000.5\n  }\n]',
      );
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
