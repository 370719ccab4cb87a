import { statfs } from 'node:fs/promises';
import { cpus, freemem, totalmem } from 'node:os';
import { clampPercent, type HostReading, type ResourceUsage, type SystemHealth } from '../../ports/system-health.js';

/** The incumbent samples CPU over 50 ms, so the first poll already gives a steady figure. */
const CPU_SAMPLE_MS = 50;

function cpuTicks(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

async function cpuPercent(): Promise<number> {
  const start = cpuTicks();
  await new Promise((resolve) => setTimeout(resolve, CPU_SAMPLE_MS));
  const end = cpuTicks();
  const total = end.total - start.total;
  if (total <= 0) return 0;
  return clampPercent(((total - Math.max(0, end.idle - start.idle)) / total) * 100);
}

function usage(used: number, total: number, what: string): ResourceUsage {
  if (!(total > 0)) throw new Error(`${what}_unavailable`);
  const u = Math.max(0, Math.min(total, used));
  return { used_bytes: u, total_bytes: total, percent: clampPercent((u / total) * 100) };
}

/** Node's view of the host: os.cpus() ticks, os.freemem() (MemAvailable on Linux), statfs of `/`. */
export class NodeSystemHealth implements SystemHealth {
  constructor(private readonly diskPath = '/') {}

  async read(): Promise<HostReading> {
    const errors: HostReading['errors'] = [];
    const attempt = async <T>(metric: string, get: () => T | Promise<T>): Promise<T | null> => {
      try {
        return await get();
      } catch (err) {
        errors.push({ metric, code: (err as Error)?.name || 'Error' });
        return null;
      }
    };
    const cpu = await attempt('cpu', async () => ({ percent: await cpuPercent() }));
    const memory = await attempt('memory', () => usage(totalmem() - freemem(), totalmem(), 'memory'));
    const disk = await attempt('disk', async () => {
      const s = await statfs(this.diskPath);
      // `used` as shutil.disk_usage counts it: total minus what is free to anyone.
      return usage((s.blocks - s.bfree) * s.bsize, s.blocks * s.bsize, 'disk');
    });
    return { cpu, memory, disk, errors };
  }
}
