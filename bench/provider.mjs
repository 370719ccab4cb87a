// A minimal OpenAI-compatible streaming server for benchmarks. Each token's text carries the
// moment it was written (performance.timeOrigin + now), so a client in this same process can
// measure provider-chunk → SSE-frame latency on one clock.
import http from 'node:http';

export const wallNow = () => performance.timeOrigin + performance.now();

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/**
 * `plan(request)` decides a turn: { tokens, intervalMs, burst, initialDelayMs } — `burst` writes
 * every token at once (throughput), otherwise one every intervalMs.
 */
export function startProvider(plan) {
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    const request = JSON.parse(body);
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.socket.setNoDelay(true);
    const isTitle = /title for this conversation/.test(request.messages?.[0]?.content ?? '');
    if (isTitle) {
      res.end(chunk({ content: 'Bench' }) + chunk({}, 'stop') + 'data: [DONE]\n\n');
      return;
    }
    const { tokens, intervalMs = 0, burst = false, initialDelayMs = 0 } = plan(request);
    // Lets a watcher attach before the first token, so that token is relayed live, not replayed.
    if (initialDelayMs) await new Promise((r) => setTimeout(r, initialDelayMs));
    if (burst) {
      let out = '';
      for (let i = 0; i < tokens; i++) out += chunk({ content: 'x' });
      res.write(out);
    } else {
      for (let i = 0; i < tokens; i++) {
        if (res.destroyed) return;
        res.write(chunk({ content: `t:${wallNow().toFixed(3)} ` }));
        if (intervalMs) await new Promise((r) => setTimeout(r, intervalMs));
      }
    }
    res.end(chunk({}, 'stop') + `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: tokens } })}\n\n` + 'data: [DONE]\n\n');
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(r);
          }),
      }),
    ),
  );
}
