// GET /api/skills over 500 skills (20 categories, each skill with references/, scripts/ and
// templates/ files, as Hermes lays them out) in $HERMES_HOME/skills: warm p50/p95/p99.
// Budget: warm p99 ≤ 50 ms.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const SKILLS = Number(process.env.BENCH_SKILLS ?? 500);
const CATEGORIES = 20;
const WARM_REQUESTS = 200;

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-skills-'));
const hermesHome = join(home, '.hermes');
try {
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${i}`;
    const dir = join(hermesHome, 'skills', `category-${i % CATEGORIES}`, name);
    mkdirSync(join(dir, 'references'), { recursive: true });
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    mkdirSync(join(dir, 'templates'), { recursive: true });
    const body = `# ${name}\n\n${'Step: do the thing carefully, then check the result.\n'.repeat(40)}`;
    writeFileSync(
      join(dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Procedure number ${i} for a kind of task\nversion: 1.0.0\nmetadata:\n  hermes:\n    tags: [bench, c${i % CATEGORIES}]\n---\n${body}`,
    );
    writeFileSync(join(dir, 'references', 'notes.md'), '# Notes\n');
    writeFileSync(join(dir, 'references', 'api.md'), '# API\n');
    writeFileSync(join(dir, 'scripts', 'run.sh'), 'echo run\n');
    writeFileSync(join(dir, 'templates', 'config.yaml'), 'key: value\n');
  }
  writeFileSync(join(hermesHome, 'config.yaml'), 'skills:\n  disabled: [skill-7, skill-70]\n');
  const server = await startServer({ HOME: home, HERMES_HOME: hermesHome, HERMES_WEBUI_STATE_DIR: join(home, 'state') });
  try {
    const first = await timeRequest(`${server.url}/api/skills`);
    console.log(`first GET /api/skills: ${fmt(first.ms)} ms (${(first.bytes / 1024).toFixed(0)} KB)`);
    for (let i = 0; i < 20; i++) await timeRequest(`${server.url}/api/skills`);
    const times = [];
    for (let i = 0; i < WARM_REQUESTS; i++) times.push((await timeRequest(`${server.url}/api/skills`)).ms);
    times.sort((a, b) => a - b);
    const p99 = percentile(times, 99);
    console.log(
      `warm GET /api/skills (${SKILLS} skills) ×${WARM_REQUESTS}: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, p99 ${fmt(p99)} ms`,
    );
    // The honest worst case: a save here forgets the scan, so the next list walks every folder
    // again (SKILL.md heads whose mtime did not change are not parsed again).
    const rescans = [];
    const content = '---\nname: skill-1\ndescription: Procedure number 1 for a kind of task\n---\n# skill-1\n\nEdited.\n';
    for (let i = 0; i < 20; i++) {
      await fetch(`${server.url}/api/skills/save`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'skill-1', content }),
      });
      rescans.push((await timeRequest(`${server.url}/api/skills`)).ms);
    }
    rescans.sort((a, b) => a - b);
    console.log(`GET /api/skills right after a save (full rescan) ×20: p50 ${fmt(percentile(rescans, 50))} ms, p95 ${fmt(percentile(rescans, 95))} ms`);
    console.log('');
    console.log(`budget warm p99 ≤ 50 ms: ${fmt(p99)} ms — ${verdict(p99, 50)}`);
  } finally {
    await stopServer(server);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
