/** Used and total bytes of one resource, and the share used (0–100, one decimal). */
export interface ResourceUsage {
  used_bytes: number;
  total_bytes: number;
  percent: number;
}

/** One reading of the host; a metric the platform cannot give is an error code instead. */
export interface HostReading {
  cpu: { percent: number } | null;
  memory: ResourceUsage | null;
  disk: ResourceUsage | null;
  /** `{metric, code}` per metric that failed: a coarse code, never a message (it could name paths). */
  errors: { metric: string; code: string }[];
}

/** Coarse CPU, memory and disk use of the machine the server runs on (the system panel). */
export interface SystemHealth {
  read(): Promise<HostReading>;
}

/** The incumbent's rounding: clamped to 0–100, one decimal. */
export function clampPercent(value: number): number {
  if (!Number.isFinite(value) || value < 0) return 0;
  return Math.round(Math.min(100, value) * 10) / 10;
}
