import { describe, expect, it } from 'vitest';
import { endpointRefusal } from '../../src/domain/push/endpoint-policy.js';

/** A resolver answering from a table, counting lookups (a send judges the endpoint again). */
function resolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (host: string) => {
      asked.push(host);
      const answer = table[host];
      if (!answer) throw new Error('ENOTFOUND');
      return answer;
    },
  };
}

describe('push endpoint policy', () => {
  it('allows https endpoints whose every address is public', async () => {
    const r = resolver({ 'fcm.googleapis.com': ['142.250.74.10', '2a00:1450:4001:82b::200a'], 'web.push.apple.com': ['17.188.180.1'] });
    const policy = { allowLocal: false, lookup: r.lookup };
    expect(await endpointRefusal('https://fcm.googleapis.com/fcm/send/abc', policy)).toBeNull();
    expect(await endpointRefusal('https://web.push.apple.com/QAbc', policy)).toBeNull();
    expect(await endpointRefusal('https://8.8.8.8/x', policy)).toBeNull();
    expect(r.asked).toEqual(['fcm.googleapis.com', 'web.push.apple.com']);
  });

  it('judges host names by what they resolve to: one private address is enough to refuse', async () => {
    const r = resolver({ 'push.example.com': ['93.184.216.34', '10.0.0.8'], 'rebind.example.com': ['127.0.0.1'], 'v6.example.com': ['::ffff:192.168.1.1'] });
    const policy = { allowLocal: false, lookup: r.lookup };
    for (const host of ['push.example.com', 'rebind.example.com', 'v6.example.com']) {
      expect(await endpointRefusal(`https://${host}/x`, policy), host).toMatch(/public address/);
    }
    expect(await endpointRefusal('https://nowhere.example.com/x', policy)).toMatch(/could not be resolved/);
  });

  it('refuses what is not an https URL, or is too long, before resolving anything', async () => {
    const r = resolver({});
    const policy = { allowLocal: false, lookup: r.lookup };
    expect(await endpointRefusal('http://push.example.com/x', policy)).toMatch(/https:\/\//);
    expect(await endpointRefusal('not a url', policy)).toMatch(/not a valid URL/);
    expect(await endpointRefusal(`https://push.example.com/${'a'.repeat(2100)}`, policy)).toMatch(/longer than 2048/);
    expect(await endpointRefusal('https://router.lan/x', policy)).toMatch(/public address/);
    expect(r.asked).toEqual([]);
  });

  it('HERMES_WEBUI_PUSH_ALLOW_LOCAL lets http and local addresses through, but never other schemes or credentials', async () => {
    const policy = { allowLocal: true, lookup: resolver({}).lookup };
    expect(await endpointRefusal('http://127.0.0.1:4000/push', policy)).toBeNull();
    expect(await endpointRefusal('https://192.168.1.20/push', policy)).toBeNull();
    expect(await endpointRefusal('file:///etc/passwd', policy)).toMatch(/http:\/\/ or https:\/\//);
    expect(await endpointRefusal('http://a:b@127.0.0.1/push', policy)).toMatch(/user name or password/);
  });
});
