import { GatewayCronJobs, GatewayJobRunner, type GatewayJobsApi } from '../../agent/gateway/gateway-jobs.js';
import type { AgentBackend } from '../../agent/backend-choice.js';
import { DEFAULT_PROFILE, type HermesHome } from '../../ports/hermes-home.js';
import type { CronService, ProfileTasks } from './types.js';

/** How long a probe's answer holds: a gateway updated or restarted is noticed within this. */
const OFFERS_TTL_MS = 30_000;
/** A "no" (down, or an older Hermes) is asked again sooner, so a gateway coming up is used quickly. */
const REFUSED_TTL_MS = 5_000;

export interface GatewayJobsWiring {
  backend: Pick<AgentBackend, 'current'>;
  /** The jobs API client for a gateway base URL (one per URL is kept). */
  api: (baseUrl: string) => GatewayJobsApi;
  now?: () => number;
}

/**
 * Who runs a profile's jobs once the chat backend can be Hermes' gateway. Builtin backend: the
 * local answer, and the gateway is never asked. Gateway backend: never this server (Hermes'
 * ticker runs them, so nothing runs twice); the default profile's jobs go through its jobs API
 * when it offers one (the API serves the gateway's own HERMES_HOME only), else cron/jobs.json is
 * edited here and the gateway picks the changes up on its next tick.
 */
export function withGatewayJobs(local: CronService, wiring: GatewayJobsWiring): CronService {
  const now = wiring.now ?? Date.now;
  const clients = new Map<string, GatewayJobsApi>();
  const probes = new Map<string, { at: number; ttl: number; offers: Promise<boolean> }>();

  const client = (url: string) => {
    let api = clients.get(url);
    if (!api) clients.set(url, (api = wiring.api(url)));
    return api;
  };

  const offers = (url: string): Promise<boolean> => {
    const hit = probes.get(url);
    if (hit && now() - hit.at < hit.ttl) return hit.offers;
    const entry = { at: now(), ttl: OFFERS_TTL_MS, offers: client(url).offersJobs() };
    void entry.offers.then((yes) => {
      if (!yes) entry.ttl = REFUSED_TTL_MS;
    });
    probes.set(url, entry);
    return entry.offers;
  };

  return {
    scheduler: local.scheduler,
    async forHome(home: HermesHome): Promise<ProfileTasks> {
      const choice = await wiring.backend.current();
      if (choice.backend !== 'gateway') return local.forHome(home);
      const files = await local.forHome(home);
      if (home.profile === DEFAULT_PROFILE && (await offers(choice.gatewayBaseUrl))) {
        const api = client(choice.gatewayBaseUrl);
        // Hermes writes its runs' outputs under the same home: the files store reads them.
        return { kind: 'gateway', via: 'api', jobs: new GatewayCronJobs(home, api, files.jobs), runner: new GatewayJobRunner(api) };
      }
      return { kind: 'gateway', via: 'files', jobs: files.jobs, runner: null };
    },
  };
}
