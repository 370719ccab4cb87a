/** Log levels as Python's logging names them, in order; our JSON lines use the same words. */
export const LEVELS = ['debug', 'info', 'warning', 'error', 'critical'] as const;
export type Level = (typeof LEVELS)[number];

/** `2026-03-01 10:00:00,123 WARNING [session] name: message` (hermes_logging.py's format). */
const PYTHON_LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b/;

function normalise(word: string): Level | null {
  const w = word.toLowerCase();
  if (w === 'warn') return 'warning';
  if (w === 'fatal') return 'critical';
  return (LEVELS as readonly string[]).includes(w) ? (w as Level) : null;
}

/** The level a line states itself: a Hermes (Python logging) line or one of our JSON lines. */
function ownLevel(line: string): Level | null {
  const python = PYTHON_LINE.exec(line);
  if (python) return normalise(python[1]!);
  if (line.startsWith('{')) {
    try {
      const level = (JSON.parse(line) as { level?: unknown }).level;
      return typeof level === 'string' ? normalise(level) : 'info';
    } catch {
      return null;
    }
  }
  return null;
}

export interface LogLine {
  text: string;
  level: Level;
}

/**
 * Each line with its level. A line that states none (a traceback's frames, a wrapped message)
 * belongs to the record above it; before any record, `info`.
 */
export function classify(lines: readonly string[]): LogLine[] {
  let current: Level = 'info';
  return lines.map((text) => {
    current = ownLevel(text) ?? current;
    return { text, level: current };
  });
}

/** Lines at `min` or above. */
export function atLeast(lines: readonly LogLine[], min: Level): LogLine[] {
  const floor = LEVELS.indexOf(min);
  return floor <= 0 ? [...lines] : lines.filter((l) => LEVELS.indexOf(l.level) >= floor);
}
