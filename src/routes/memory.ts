import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { jsonBody } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { redactionEnabled } from '../http/redaction.js';
import { AppError, Conflict, Forbidden } from '../ports/errors.js';
import type { HermesHome } from '../ports/hermes-home.js';
import { redactSecrets } from '../shared/redact.js';
import type { MemoryConfig } from '../agent/config.js';
import { DEFAULT_MEMORY_CONFIG, parseEntries, serializeEntries, usedChars } from '../agent/tools/memory-store.js';
import { withMemoryFile } from '../agent/tools/memory.js';
import { AmbiguousMask, unmaskUnits } from '../domain/memory-unmask.js';
import { type Section, readSection, sectionFile } from './memory-sections.js';

const Body = z.object({
  section: z.enum(['memory', 'user', 'soul'], { message: 'section must be "memory", "user", or "soul"' }),
  content: z.string().max(1_000_000),
  /** The `*_mtime` the client read; a different one now means someone else wrote the file (409). Absent: no check (the incumbent's clients). */
  mtime: z.number().nullable().optional(),
});

const DISABLED: Record<Section, string | null> = {
  memory: 'Memory is disabled by configuration (memory_enabled: false)',
  user: 'User profile is disabled by configuration (user_profile_enabled: false)',
  soul: null,
};

/** `memory.*` of the profile's config.yaml; a file Hermes cannot read leaves Hermes' defaults (as the incumbent's empty snapshot). */
async function memoryConfig(home: HermesHome): Promise<MemoryConfig> {
  try {
    return (await home.config.load()).memory;
  } catch {
    return DEFAULT_MEMORY_CONFIG;
  }
}

const enabledIn = (config: MemoryConfig, section: Section) =>
  section === 'memory' ? config.memoryEnabled : section === 'user' ? config.userProfileEnabled : true;
const limitIn = (config: MemoryConfig, section: Section) => (section === 'memory' ? config.memoryCharLimit : section === 'user' ? config.userCharLimit : null);

/** Node's permission and read-only-volume failures, seen through the port without importing node:*. */
const deniedWrite = (err: unknown) => ['EACCES', 'EPERM', 'EROFS'].includes(String((err as { code?: unknown } | null)?.code ?? ''));

/**
 * `GET /api/memory` and `POST /api/memory/write`: the profile's MEMORY.md, USER.md (as their
 * `§` entries) and SOUL.md, the incumbent's fields plus what the panel needs (enabled flags,
 * limits, usage, whether each file can be written and why not). Text is shown masked under
 * `api_redact_enabled`; a save puts back every masked piece the user left alone.
 */
export function memoryRoutes(deps: AppDeps) {
  const app = new Hono();

  const snapshot = async (home: HermesHome, masking: boolean) => {
    const config = await memoryConfig(home);
    const mask = masking ? redactSecrets : (t: string) => t;
    const [memory, user, soul] = await Promise.all(
      (['memory', 'user', 'soul'] as const).map((s) => readSection(home, s, { enabled: enabledIn(config, s), limit: limitIn(config, s) }, mask)),
    );
    return {
      memory: memory!.shown,
      user: user!.shown,
      soul: soul!.shown,
      memory_path: memory!.enabled ? memory!.path : '',
      user_path: user!.enabled ? user!.path : '',
      soul_path: soul!.path,
      memory_mtime: memory!.enabled ? memory!.mtime : null,
      user_mtime: user!.enabled ? user!.mtime : null,
      soul_mtime: soul!.mtime,
      profile: home.profile,
      redacted: masking,
      sections: { memory: memory!.info, user: user!.info, soul: soul!.info },
    };
  };

  app.get('/api/memory', async (c) => {
    const home = await requestHome(c, deps);
    return c.json(await snapshot(home, await redactionEnabled(deps.settings)));
  });

  app.post('/api/memory/write', async (c) => {
    const b = await jsonBody(c, Body);
    const home = await requestHome(c, deps);
    const config = await memoryConfig(home);
    const section = b.section;
    const disabled = DISABLED[section];
    if (disabled && !enabledIn(config, section)) throw new Forbidden(`${disabled}. Turn it on in ${home.config.paths.config} to edit it here.`);
    const masking = await redactionEnabled(deps.settings);
    const { path, guard } = sectionFile(home, section);

    await withMemoryFile(home.root, section, async () => {
      // Symlinks and read-only files are refused before anything is read or compared.
      await guard();
      const st = await home.files.stat(path);
      if (b.mtime !== undefined && (st?.mtime ?? null) !== b.mtime)
        throw new Conflict(`${path.split('/').pop()} changed elsewhere since it was read — reload it; nothing was saved`, {
          mtime: st?.mtime ?? null,
        });
      const before = (await home.files.readText(path)) ?? '';
      const mask = masking ? redactSecrets : (t: string) => t;
      let text: string;
      try {
        if (section === 'soul') {
          text = unmaskUnits([b.content], [before], mask)[0]!;
        } else {
          const entries = unmaskUnits(parseEntries(b.content), parseEntries(before), mask);
          const limit = limitIn(config, section)!;
          const used = usedChars(entries);
          // Over the budget is refused, unless the file was already over it and this save shrinks it.
          if (used > limit && used >= usedChars(parseEntries(before))) {
            throw new AppError(
              422,
              `${section === 'memory' ? 'MEMORY.md' : 'USER.md'} would be ${used.toLocaleString('en-US')} characters, over its limit of ${limit.toLocaleString('en-US')}: shorten or remove entries, then save again`,
              {
                section,
                used,
                limit,
              },
            );
          }
          text = serializeEntries(entries);
        }
      } catch (err) {
        if (err instanceof AmbiguousMask)
          throw new Conflict(
            'An edited part holds a masked secret that stands for more than one original: edit that line in the file itself, or type the secret again',
          );
        throw err;
      }
      try {
        await home.files.writeText(path, text);
      } catch (err) {
        if (deniedWrite(err))
          throw new Forbidden(`${path.split('/').pop()} is not writable: ${path}. Run chmod 644 on the file or fix ownership on the shared volume.`);
        throw err;
      }
    });
    const state = await snapshot(home, masking);
    return c.json({ ok: true, section, path, ...state });
  });

  return app;
}
