import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelChunk, ModelProvider, ModelRequest } from '../../../src/agent/providers/types.js';
import { ProviderError } from '../../../src/agent/providers/types.js';

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'test-model', messages: [{ role: 'user', content: 'Hi' }], signal: new AbortController().signal, ...overrides };
}

export async function collect(provider: ModelProvider, req: ModelRequest = request()): Promise<ModelChunk[]> {
  const out: ModelChunk[] = [];
  for await (const c of provider.stream(req)) out.push(c);
  return out;
}

/** Runs the stream to its failure; returns the chunks seen before it and the error. */
export async function failure(provider: ModelProvider, req: ModelRequest = request()): Promise<{ chunks: ModelChunk[]; error: unknown }> {
  const chunks: ModelChunk[] = [];
  try {
    for await (const c of provider.stream(req)) chunks.push(c);
  } catch (error) {
    return { chunks, error };
  }
  throw new Error(`expected the stream to fail, got ${JSON.stringify(chunks)}`);
}

export async function providerError(provider: ModelProvider, req: ModelRequest = request()): Promise<ProviderError> {
  const { error } = await failure(provider, req);
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

export const textOf = (chunks: ModelChunk[], type: 'text' | 'reasoning' = 'text') => chunks.flatMap((c) => (c.type === type ? [c.text] : [])).join('');

/** Reassembles tool calls from fragments the way the agent loop does: by index, concatenating arguments. */
export function toolCalls(chunks: ModelChunk[]): Array<{ id: string; name: string; arguments: string }> {
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const c of chunks) {
    if (c.type !== 'tool_call') continue;
    const call = (calls[c.index] ??= { id: '', name: '', arguments: '' });
    if (c.id) call.id = c.id;
    if (c.name) call.name = c.name;
    if (c.arguments) call.arguments += c.arguments;
  }
  return calls;
}

/** A base URL on which nothing listens: a port that was free a moment ago. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
