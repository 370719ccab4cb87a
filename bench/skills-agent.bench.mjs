// The builtin agent's skills over a large Hermes tree: 500 skills in 25 categories (each with a
// references/ file), on disk through the Node tool host. Times skills_list (one scan, every
// SKILL.md read), the system prompt's `## Skills` index (built when a session's prompt is) and
// a skill_view by name, warm (the page cache holds the tree).
// Budget: the "skills list over 500 skills ≤ 50 ms" (p50, warm) applies to skills_list.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, percentile, root, verdict } from './lib.mjs';

const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-skills-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { NodeToolHost } from ${JSON.stringify(join(root, 'src/adapters/platform/node-tool-host.ts'))};
export { skillsListTool, skillViewTool } from ${JSON.stringify(join(root, 'src/agent/tools/skills.ts'))};
export { skillsIndex } from ${JSON.stringify(join(root, 'src/agent/tools/skills-scan.ts'))};`,
  );
  const outfile = join(dir, 'skills.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    // yaml's CommonJS build requires node built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outfile,
    logLevel: 'error',
  });
  const { NodeToolHost, skillsListTool, skillViewTool, skillsIndex } = await import(pathToFileURL(outfile).href);

  const home = join(dir, 'home');
  const hermesHome = join(home, '.hermes');
  for (let i = 0; i < 500; i++) {
    const skillDir = join(hermesHome, 'skills', `category-${i % 25}`, `skill-${i}`);
    mkdirSync(join(skillDir, 'references'), { recursive: true });
    writeFileSync(
      join(skillDir, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Procedure number ${i} for a recurring kind of task, with its pitfalls\nmetadata:\n  hermes:\n    tags: [bench, t${i % 7}]\n---\n# Skill ${i}\n\n${'1. A step with an exact command.\n'.repeat(40)}`,
    );
    writeFileSync(join(skillDir, 'references', 'api.md'), '# Reference\n');
  }
  const host = new NodeToolHost({ homeDir: home });
  const settings = { disabled: ['skill-3'], externalDirs: [] };
  const ctx = {
    sessionId: 'bench',
    workspace: home,
    hermesHome,
    host,
    signal: new AbortController().signal,
    knowledge: { skills: settings, platform: 'linux' },
  };
  const tools = ['terminal', 'read_file', 'skills_list', 'skill_view', 'skill_manage'];

  const time = async (fn, rounds) => {
    for (let i = 0; i < 3; i++) await fn();
    const samples = [];
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      await fn();
      samples.push(performance.now() - t);
    }
    return samples.sort((a, b) => a - b);
  };
  const listed = JSON.parse(await skillsListTool.run({}, ctx));
  const list = await time(() => skillsListTool.run({}, ctx), 21);
  const index = await time(() => skillsIndex(host, { hermesHome, settings, platform: 'linux', tools }), 21);
  const view = await time(() => skillViewTool.run({ name: 'skill-250' }, ctx), 21);
  const p50 = percentile(list, 50);
  console.log(`skills_list over ${listed.count} skills (500 on disk, 1 disabled): p50 ${fmt(p50)} ms, p90 ${fmt(percentile(list, 90))} ms`);
  console.log(`## Skills index over 500 skills: p50 ${fmt(percentile(index, 50))} ms`);
  console.log(`skill_view by name among 500: p50 ${fmt(percentile(view, 50))} ms`);
  console.log(`budget skills list over 500 skills ≤ 50 ms (p50): ${fmt(p50)} ms — ${verdict(p50, 50)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
