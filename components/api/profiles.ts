import { request } from './client.js';

/** One row of GET /api/profiles (the incumbent's fields; `gateway_running` is null: not known here). */
export interface ProfileRow {
  name: string;
  path: string;
  is_default: boolean;
  is_active: boolean;
  gateway_running: boolean | null;
  model: string | null;
  provider: string | null;
  has_env: boolean;
  skill_count: number;
  enabled_skills: number;
  total_skills: number;
}

export interface ProfileList {
  profiles: ProfileRow[];
  active: string;
  single_profile_mode: boolean;
}

/** What POST /api/profile/create takes: a name, and a profile to clone or an endpoint, key and model. */
export interface NewProfile {
  name: string;
  clone_from?: string;
  base_url?: string;
  api_key?: string;
  default_model?: string;
  model_provider?: string;
}

/** Hermes profiles: the incumbent's /api/profile* family. The choice is this browser's cookie. */
export const profilesApi = {
  list: () => request<ProfileList>('GET', '/api/profiles'),
  active: () => request<{ name: string; path: string; is_default: boolean; default_workspace: string | null }>('GET', '/api/profile/active'),
  switchTo: (name: string) => request<ProfileList & { default_workspace: string | null }>('POST', '/api/profile/switch', { name }),
  create: (body: NewProfile) => request<{ ok: true; profile: ProfileRow }>('POST', '/api/profile/create', body).then((r) => r.profile),
  remove: (name: string) => request<{ ok: true; name: string }>('POST', '/api/profile/delete', { name }),
};
