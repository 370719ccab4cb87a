import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from './deps.js';
import { TooLarge } from './ports/errors.js';
import { errorResponder } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { securityHeaders } from './http/security-headers.js';
import { compression } from './http/compression.js';
import { acceptLoopCounter, healthRoutes } from './routes/health.js';
import { sessionRoutes } from './routes/sessions.js';
import { sessionOpRoutes } from './routes/session-ops.js';
import { sessionCompressRoutes } from './routes/session-compress.js';
import { sessionTurnOpRoutes } from './routes/session-turn-ops.js';
import { sessionChangeRoutes } from './routes/session-changes.js';
import { personalityRoutes } from './routes/personalities.js';
import { sessionUsageRoutes } from './routes/session-usage.js';
import { sessionFindRoutes } from './routes/session-find.js';
import { processRoutes } from './routes/processes.js';
import { projectRoutes } from './routes/projects.js';
import { projectBindRoutes } from './routes/project-bind.js';
import { settingsRoutes } from './routes/settings.js';
import { workspaceRoutes } from './routes/workspaces.js';
import { fileRoutes } from './routes/files.js';
import { gitRoutes } from './routes/git.js';
import { gitWriteRoutes } from './routes/git-write.js';
import { uploadRoutes } from './routes/upload.js';
import { voiceRoutes } from './routes/voice.js';
import { workspaceTransferRoutes } from './routes/workspace-transfer.js';
import { mediaRoutes } from './routes/media.js';
import { shellRoutes } from './routes/shell.js';
import { logRoutes } from './routes/logs.js';
import { chatRoutes } from './routes/chat.js';
import { chatSteerRoutes } from './routes/chat-steer.js';
import { interactionRoutes } from './routes/interactions.js';
import { modelRoutes } from './routes/models.js';
import { reasoningRoutes } from './routes/reasoning.js';
import { agentRoutes } from './routes/agent.js';
import { embedRoutes } from './routes/embed.js';
import { embedCors } from './http/cors.js';
import { EmbedTokens } from './embed/tokens.js';
import { AuthService } from './auth/auth-service.js';
import { authGuard } from './http/auth-guard.js';
import { authRoutes } from './routes/auth.js';
import { onboardingRoutes } from './routes/onboarding.js';
import { providerRoutes } from './routes/providers.js';
import { redactingLogger } from './http/redacting-logger.js';
import { mcpRoutes } from './routes/mcp.js';
import { memoryRoutes } from './routes/memory.js';
import { profileRoutes } from './routes/profiles.js';
import { insightsRoutes } from './routes/insights.js';
import { skillsRoutes } from './routes/skills.js';
import { pushRoutes } from './routes/push.js';
import { liveEventRoutes } from './routes/live-events.js';
import { cronRoutes } from './routes/crons.js';
import { terminalRoutes } from './routes/terminal.js';
import { shareRoutes } from './routes/shares.js';
import { sessionDraftRoutes } from './routes/session-draft.js';
import { sessionToolsetRoutes } from './routes/session-toolsets.js';
import { sessionCleanupRoutes } from './routes/session-cleanup.js';
import { filePathRoutes } from './routes/file-path.js';
import { promptRoutes } from './routes/prompts.js';
import { systemHealthRoutes } from './routes/system-health.js';
import { providerUsageRoutes } from './routes/provider-usage.js';

export type { AppDeps, AppOptions } from './deps.js';

/** Requests about a session's runs: on Workers they go to the session's Durable Object. */
export const RUN_PATHS = /^\/api\/(chat\/(start|stream|stream\/status|cancel|steer)|approval\/(pending|respond)|clarify\/(pending|respond)|session\/yolo)$/;

/** The incumbent's JSON body cap. */
export const MAX_JSON_BYTES = 20 * 1024 * 1024;

/**
 * Builds the Hono app from its ports. Runtime-free: entry files pass in adapters.
 *
 * @example
 * const app = createApp({ sessions, settings, projects, workspaces, files, attachments, clock, logger, options });
 * serve({ fetch: app.fetch, port: 8787 });
 */
export function createApp(appDeps: AppDeps): Hono {
  // Log lines never carry a secret (an API key in an error, a token in a tool result).
  const deps: AppDeps = { ...appDeps, logger: redactingLogger(appDeps.logger) };
  const app = new Hono();
  const maxJson = deps.options.maxJsonBytes ?? MAX_JSON_BYTES;

  app.use('*', requestLog(deps.logger));
  const acceptLoop = acceptLoopCounter(deps);
  app.use('*', acceptLoop.count);
  app.use('*', securityHeaders());
  // Inside the log and security headers, outside every route and the error answers.
  app.use('*', compression(deps.compression));
  // Embedding: foreign origins need the allowlist and an embed token; same-origin requests pass.
  const auth = new AuthService({ store: deps.auth, settings: deps.settings, clock: deps.clock, logger: deps.logger }, deps.options.auth);
  const embedTokens = deps.embed ? new EmbedTokens(deps.embed.tokens, deps.clock.now) : null;
  app.use('*', embedCors(deps, embedTokens, auth.config));
  // Same-origin check for state-changing requests, then sign-in and CSRF when a password is set.
  app.use('*', authGuard(auth, auth.config));
  app.use('/api/*', async (c, next) => {
    // Uploads and recordings carry their own, larger limits (routes/upload.ts, routes/voice.ts).
    if (c.req.path === '/api/upload' || c.req.path === '/api/transcribe' || c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return bodyLimit({
      maxSize: maxJson,
      onError: () => {
        throw new TooLarge('Request body too large');
      },
    })(c, next);
  });
  app.use('/api/*', async (c, next) => {
    await next();
    // API answers are per-user and live: never cached by the browser or a proxy.
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
  // Inside the body limit and no-store: a forwarded request is one this instance accepted. Reading the body here leaves it cached for the route.
  if (deps.forwardRun) {
    const forward = deps.forwardRun;
    app.use('/api/*', async (c, next) => (RUN_PATHS.test(c.req.path) ? ((await forward(c)) ?? next()) : next()));
  }

  app.route('/', healthRoutes(deps, acceptLoop));
  app.route('/', sessionRoutes(deps));
  app.route('/', sessionOpRoutes(deps));
  app.route('/', sessionCompressRoutes(deps));
  app.route('/', sessionTurnOpRoutes(deps));
  app.route('/', sessionChangeRoutes(deps));
  app.route('/', personalityRoutes(deps));
  app.route('/', sessionUsageRoutes(deps));
  app.route('/', sessionFindRoutes(deps));
  app.route('/', processRoutes(deps));
  app.route('/', projectRoutes(deps));
  app.route('/', projectBindRoutes(deps));
  app.route('/', authRoutes(deps, auth));
  app.route('/', settingsRoutes(deps, auth));
  app.route('/', workspaceRoutes(deps));
  app.route('/', fileRoutes(deps));
  app.route('/', gitRoutes(deps));
  app.route('/', gitWriteRoutes(deps));
  app.route('/', uploadRoutes(deps));
  app.route('/', voiceRoutes(deps));
  app.route('/', workspaceTransferRoutes(deps));
  app.route('/', mediaRoutes(deps));
  app.route('/', chatRoutes(deps));
  app.route('/', chatSteerRoutes(deps));
  app.route('/', interactionRoutes(deps));
  app.route('/', pushRoutes(deps));
  app.route('/', modelRoutes(deps));
  app.route('/', reasoningRoutes(deps));
  app.route('/', agentRoutes(deps));
  app.route('/', onboardingRoutes(deps, auth));
  app.route('/', providerRoutes(deps));
  app.route('/', mcpRoutes(deps));
  app.route('/', memoryRoutes(deps));
  app.route('/', cronRoutes(deps));
  app.route('/', profileRoutes(deps, auth));
  app.route('/', insightsRoutes(deps));
  app.route('/', skillsRoutes(deps));
  app.route('/', embedRoutes(deps, embedTokens));
  app.route('/', shareRoutes(deps));
  app.route('/', shellRoutes(deps));
  app.route('/', logRoutes(deps));
  app.route('/', terminalRoutes(deps));
  app.route('/', liveEventRoutes(deps));
  app.route('/', sessionDraftRoutes(deps));
  app.route('/', sessionToolsetRoutes(deps));
  app.route('/', sessionCleanupRoutes(deps));
  app.route('/', filePathRoutes(deps));
  app.route('/', promptRoutes(deps));
  app.route('/', systemHealthRoutes(deps));
  app.route('/', providerUsageRoutes(deps));

  app.notFound((c) => c.json({ error: 'not found' }, 404));
  app.onError(errorResponder(deps.logger));
  return app;
}
