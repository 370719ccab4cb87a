import { join } from 'node:path';
import { parseDotenv } from '../../agent/config.js';
import { readTextIfExists } from '../storage/fs/atomic-file.js';

/**
 * The gateway's API key, as Hermes itself finds API_SERVER_KEY: HERMES_WEBUI_GATEWAY_API_KEY
 * (`configured`) first, then API_SERVER_KEY from the environment, then from `$HERMES_HOME/.env`
 * — read on every call, so a key changed there applies without a restart. Null: none set.
 */
export function gatewayApiKey(hermesHome: string, configured: string | undefined, env: Record<string, string | undefined>): () => Promise<string | null> {
  const fixed = configured?.trim() || env.API_SERVER_KEY?.trim();
  // (then `.env`: HERMES_WEBUI_GATEWAY_API_KEY, else API_SERVER_KEY)
  const dotenv = join(hermesHome, '.env');
  return async () => {
    if (fixed) return fixed;
    // The wizard saves a key the user typed as HERMES_WEBUI_GATEWAY_API_KEY (Hermes' own API_SERVER_KEY is left alone).
    const values = parseDotenv((await readTextIfExists(dotenv)) ?? '');
    return values.HERMES_WEBUI_GATEWAY_API_KEY?.trim() || values.API_SERVER_KEY?.trim() || null;
  };
}
