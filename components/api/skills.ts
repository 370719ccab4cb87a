import { q, request } from './client.js';

export type LinkedFiles = Partial<Record<'references' | 'templates' | 'assets' | 'scripts', string[]>>;

/** One row of GET /api/skills (the incumbent's fields plus ours). */
export interface SkillRow {
  name: string;
  description: string;
  category: string | null;
  disabled: boolean;
  enabled: boolean;
  path: string;
  source: 'local' | 'external';
  read_only: boolean;
  tags: string[];
  linked_files: LinkedFiles;
}

export interface SkillDetail {
  name: string;
  description: string;
  content: string;
  path: string;
  category: string | null;
  disabled: boolean;
  read_only: boolean;
  tags: string[];
  linked_files: LinkedFiles;
}

export interface SkillUsage {
  use_count: number;
  view_count: number;
  patch_count: number;
  [key: string]: unknown;
}

/** The Skills panel's calls (the incumbent's /api/skills family), on the browser's profile. */
export const skillsApi = {
  list: (refresh = false) => request<{ skills: SkillRow[]; categories: string[] }>('GET', refresh ? '/api/skills?refresh=1' : '/api/skills'),
  usage: () => request<{ usage: Record<string, SkillUsage> }>('GET', '/api/skills/usage').then((r) => r.usage),
  content: (name: string) => request<SkillDetail>('GET', `/api/skills/content?${q({ name })}`),
  file: (name: string, file: string) => request<{ content: string; path: string }>('GET', `/api/skills/content?${q({ name, file })}`),
  save: (name: string, content: string, category?: string) =>
    request<{ ok: true; name: string; path: string; created: boolean }>('POST', '/api/skills/save', { name, content, ...(category ? { category } : {}) }),
  remove: (name: string) => request<{ ok: true }>('POST', '/api/skills/delete', { name }),
  toggle: (name: string, enabled: boolean) => request<{ ok: true; enabled: boolean }>('POST', '/api/skills/toggle', { name, enabled }),
};
