import { lookup } from 'node:dns/promises';

/** Every address a host name resolves to, for web_extract's private-address check. */
export async function lookupAddresses(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}
