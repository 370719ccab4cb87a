import { BadRequest } from '../../ports/errors.js';
import type { Message } from '../../shared/session.js';
import { Channel } from '../channel.js';
import { AgentConfigError, type AgentConfig } from '../config.js';
import {
  runEvent,
  type AgentRuntime,
  type CompressInput,
  type CompressOutput,
  type EmitEvent,
  type TitleInput,
  type TurnInput,
  type TurnOutput,
  type TurnStep,
} from '../runtime.js';
import type { OneShotInput, SteerInput, SteerOutcome } from '../runtime.js';
import { callModel } from './model-call.js';
import { ModelCatalogService, type Catalog } from '../catalog/catalog.js';
import { BuiltinSetup } from './setup.js';
import type { AgentConfigSource } from '../config-source.js';
import type { HermesHome } from '../../ports/hermes-home.js';
import { ProviderConfigError, resolveProvider } from '../providers/resolve.js';
import { resolveFallbacks } from '../providers/fallback.js';
import { builtinTools } from '../tools/index.js';
import type { TerminalSessionState, TodoItem, ToolContext } from '../tools/types.js';
import { parseWriteSafeRoots } from '../tools/file-guards.js';
import { webToolsEnabled } from '../tools/web/settings.js';
import { checkShellCommand } from './command-approval.js';
import { fileEditGate } from './file-edit-approval.js';
import { SESSION_PROMPT_KEY, sessionSystemPrompt } from './session-prompt.js';
import { runLoop } from './loop.js';
import { compressionModel } from './compression-policy.js';
import { compressManually } from './manual-compression.js';
import { compressedContextTokens, contextWindowPatch } from './context-window.js';
import { generateTitle } from './title.js';
import { personalityPrompt } from '../personalities.js';
import type { CompressionAnchor } from './history.js';
import { knowledgeContext, knowledgeToolUsable, skillsPromptBlock } from './knowledge.js';
import { narrowToSessionToolsets } from './session-toolsets.js';
import { narrowForDelegation, subagentApprovalRefusal, subagentOf, subagentSpawner, subagentSystemPrompt, type SubagentMarker } from './subagents.js';
import { askMcpTrust } from '../mcp/approval.js';
import { MemoryCatalogCache, unavailableHost, webSeams, type BuiltinRuntimeOptions } from './runtime-options.js';
export type { BuiltinRuntimeOptions } from './runtime-options.js';
import { PendingSteers, steerSource } from './steer.js';
import { turnTranscript } from './attachment-content.js';
import { withSkillInvocations } from './skill-invocation.js';
import { cronCommandDecision, cronMcpRefusal } from './unattended.js';
import { NO_PREFILL, turnPrefill } from '../prefill-turn.js';

const HOST_FREE_TOOLS = new Set(['todo', 'clarify', 'session_search', 'vision_analyze']);

/**
 * The TypeScript agent: Hermes' loop, tools and approval rules over any OpenAI-compatible or
 * Anthropic model configured in `$HERMES_HOME/config.yaml`.
 *
 * @example
 * const runtime = new BuiltinAgentRuntime({ config, host: new NodeToolHost(), hub, hermesHome, logger, now });
 */
export class BuiltinAgentRuntime implements AgentRuntime {
  readonly kind = 'builtin';
  #todos = new Map<string, TodoItem[]>();
  #smartNoted = new Set<string>();
  /** Where each session's shell is, kept across turns (in memory, as Hermes keeps it), for the workspace it began in. */
  #cwds = new Map<string, { workspace: string; cwd: string }>();
  /** Steer text waiting for each running turn's next tool boundary. */
  #steers = new PendingSteers();
  readonly catalog: ModelCatalogService;
  #setups = new Map<string, BuiltinSetup>();
  readonly setup: BuiltinSetup;

  constructor(private readonly options: BuiltinRuntimeOptions) {
    this.catalog = new ModelCatalogService({
      cache: options.catalogCache ?? new MemoryCatalogCache(),
      now: options.now,
      ...(options.catalogBudgetMs !== undefined ? { budgetMs: options.catalogBudgetMs } : {}),
    });
    this.setup = new BuiltinSetup(options.config, this.catalog, (model) => this.check(model));
  }

  /** The profile home a call works in: the one it names, else this runtime's default. */
  #home(home: HermesHome | undefined): { root: string; config: AgentConfigSource } {
    return home ?? { root: this.options.hermesHome, config: this.options.config };
  }

  async #resolve(model: string | null, home?: HermesHome) {
    let config: AgentConfig;
    try {
      config = await this.#home(home).config.load();
    } catch (err) {
      if (err instanceof AgentConfigError) throw new BadRequest(err.message);
      throw err;
    }
    try {
      return { config, ...resolveProvider(config, model, this.options.fetch) };
    } catch (err) {
      if (err instanceof ProviderConfigError) throw new BadRequest(err.message);
      throw err;
    }
  }

  async check(model: string | null, home?: HermesHome): Promise<void> {
    await this.#resolve(model, home);
  }

  async compress(input: CompressInput): Promise<CompressOutput | null> {
    const { session } = input;
    const { config, provider, model } = await this.#resolve(typeof session.model === 'string' ? session.model : null, input.home);
    const anchor = session.compression_anchor_visible_idx;
    const summary = session.compression_anchor_summary;
    const previous: CompressionAnchor | null = typeof anchor === 'number' && typeof summary === 'string' && summary ? { anchor, summary } : null;
    const done = await compressManually({
      config,
      summariser: compressionModel(config, { provider, model }, this.options.fetch),
      fallback: { provider, model },
      transcript: session.messages,
      previous,
      focusTopic: input.focusTopic,
      signal: input.signal,
    });
    if (!done) return null;
    // The ring shows the smaller context at once, not only after the next turn has counted it.
    const contextTokens = compressedContextTokens(session, previous, done.anchor, config.compression.protectFirstN);
    return {
      patch: {
        compression_anchor_visible_idx: done.anchor.anchor,
        compression_anchor_summary: done.anchor.summary,
        last_prompt_tokens: contextTokens,
        post_compression_context_tokens_estimate: contextTokens,
      },
      summarised: done.summarised,
      summary: done.anchor.summary,
      tokens: done.tokens,
      ...(done.failure ? { failure: done.failure } : {}),
    };
  }

  async generateTitle(input: TitleInput): Promise<string | null> {
    const { session } = input;
    const { provider, model } = await this.#resolve(typeof session.model === 'string' ? session.model : null, input.home);
    return generateTitle({ provider, model, messages: session.messages, signal: input.signal, preferLatest: input.preferLatest });
  }

  async oneShot(input: OneShotInput): Promise<string> {
    const { session } = input;
    const { provider, model } = await this.#resolve(typeof session.model === 'string' ? session.model : null, input.home);
    const result = await callModel(provider, {
      model,
      messages: [
        { role: 'system', content: input.system },
        { role: 'user', content: input.user },
      ],
      maxTokens: input.maxTokens,
      promptCache: false,
      signal: input.signal,
    });
    return result.text;
  }

  async steer(input: SteerInput): Promise<SteerOutcome> {
    return this.#steers.push(input.streamId, input.text) ? { accepted: true } : { accepted: false, fallback: 'not_running' };
  }

  startTurn(input: TurnInput): AsyncIterable<TurnOutput> {
    const channel = new Channel<TurnOutput>();
    this.#steered(input, (out) => channel.push(out)).then(
      () => channel.end(),
      (err) => channel.fail(err),
    );
    return channel;
  }

  /** The turn, taking steers from start to its last model call; text none took goes back to the composer. */
  async #steered(input: TurnInput, emit: (out: TurnOutput) => void): Promise<void> {
    const { streamId } = input;
    const sid = input.session.session_id;
    this.#steers.open(streamId);
    const leftover = () => {
      const text = this.#steers.close(streamId);
      if (text) emit(runEvent('pending_steer_leftover', { session_id: sid, text }));
    };
    try {
      await this.#turn(input, emit, leftover);
    } finally {
      leftover();
    }
  }

  async #turn(input: TurnInput, emit: (out: TurnOutput) => void, loopDone: () => void): Promise<void> {
    const { session, signal } = input;
    const sid = session.session_id;
    const { config, provider, model, contextLength } = await this.#resolve(input.model, input.home);
    const hermesHome = this.#home(input.home).root;
    emit({ type: 'patch', patch: contextWindowPatch(config, contextLength, model) });
    const webTools = config.web ? webToolsEnabled(config.web) : false;
    const tools = builtinTools({
      terminalTimeoutSeconds: config.terminal.timeoutSeconds,
      terminalMaxOutputChars: config.terminalOutput.maxChars,
      redactSecrets: config.terminalOutput.redactSecrets,
      memory: config.memory,
      webTools,
    }).filter(
      (t) =>
        (this.options.toolNames ? this.options.toolNames.includes(t.spec.name) : this.options.host || HOST_FREE_TOOLS.has(t.spec.name)) &&
        knowledgeToolUsable(t.spec.name, this.options.host),
    );
    if (this.options.mcp && !this.options.toolNames) {
      // A server that cannot be reached only costs its own tools, never the turn.
      const mcpTools = await this.options.mcp.toolsForTurn(input.home?.profile ?? session.profile ?? null).catch((err) => {
        this.options.logger.info({ msg: 'mcp tools unavailable', session_id: sid, error: String((err as Error)?.message ?? err) });
        return [];
      });
      tools.push(...mcpTools);
    }
    narrowToSessionToolsets(tools, session);
    // A delegate_task child: its own tool set, budget and prompt (src/agent/builtin/subagents.ts).
    const child = subagentOf(session);
    narrowForDelegation(tools, { child, canSpawn: !!this.options.childRuns, limits: config.delegation });
    const toolContext = this.#toolContext(
      input,
      config,
      emit,
      child,
      tools.map((t) => t.spec.name),
    );
    const knowledge = knowledgeContext({
      config,
      hermesHome,
      host: this.options.host,
      main: { provider, model },
      sessions: this.options.sessions ?? null,
      agentSessions: (input.home && this.options.agentSessionsFor?.(input.home)) || this.options.agentSessions || null,
      platform: this.options.platform ?? 'linux',
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
    toolContext.knowledge = knowledge;
    const toolNames = tools.map((t) => t.spec.name);
    // A child's prompt is its task; a conversation's is built once and stored (session-prompt.ts).
    let systemPrompt: string;
    if (child) systemPrompt = subagentSystemPrompt(child, input.workspace);
    else {
      const prompt = await sessionSystemPrompt({
        session,
        host: this.options.host,
        hermesHome,
        workspace: input.workspace,
        model,
        provider: provider.id,
        toolNames,
        memory: config.memory,
        // Walked only when the prompt is (re)built.
        skillsIndex: () => skillsPromptBlock({ host: this.options.host, knowledge, hermesHome, toolNames }),
      });
      if (prompt.store) emit({ type: 'patch', patch: { [SESSION_PROMPT_KEY]: prompt.store } });
      // The chosen personality is an ephemeral layer over the stored prompt, as in Hermes.
      const persona = personalityPrompt(config.personalities, session.personality);
      systemPrompt = persona ? `${prompt.text}\n\n${persona}` : prompt.text;
    }
    // Browser turns only (not a scheduled task, not a subagent): the prefill, in the model's copy.
    const prefill =
      this.options.prefill && !child && input.unattended !== 'cron'
        ? await turnPrefill(this.options.prefill, this.#home(input.home).config, config, { sessionId: sid, logger: this.options.logger, emit })
        : NO_PREFILL;
    if (prefill.system) systemPrompt = `${systemPrompt}\n\n${prefill.system}`;
    const fallbacks = resolveFallbacks(config, this.options.fetch, (entry, why) =>
      this.options.logger.info({ msg: 'fallback provider skipped', provider: entry.provider, model: entry.model, reason: why }),
    );
    const anchor = session.compression_anchor_visible_idx;
    const summary = session.compression_anchor_summary;
    const compression: CompressionAnchor | null = typeof anchor === 'number' && typeof summary === 'string' && summary ? { anchor, summary } : null;
    // `/<skill>` and `/use`: the invoked skill's content goes into the model's copy (skill-invocation.ts).
    const invoked = await withSkillInvocations(session.messages, toolContext);
    for (const warning of invoked.warnings) emit(runEvent('warning', warning));
    // Attachments are built into the model's copy now; the stored transcript keeps only their list.
    const prepared = await turnTranscript(invoked.transcript, {
      sessionId: sid,
      reader: this.options.attachments ?? null,
      imageInput: config.imageInput,
      provider: provider.id,
      model,
      toolNames,
      catalogVision: () => this.catalog.visionOf(model),
    });
    for (const warning of prepared.warnings) emit(runEvent('warning', warning));

    await runLoop({
      sessionId: sid,
      provider,
      model,
      contextLength,
      // A child's budget is delegation.max_iterations, not the conversation's agent.max_turns.
      config: child ? { ...config, maxTurns: config.delegation.maxIterations } : config,
      // A child's prompt is its task (the conversation's own prompt is not its business).
      systemPrompt,
      prefill: prefill.exchange,
      transcript: prepared.transcript,
      compression,
      lastPromptTokens: typeof session.last_prompt_tokens === 'number' ? session.last_prompt_tokens : 0,
      tools,
      toolContext,
      signal,
      now: this.options.now,
      compressionModel: compressionModel(config, { provider, model }, this.options.fetch),
      ...(this.options.backoff ? { backoff: this.options.backoff } : {}),
      fallbacks,
      steer: steerSource(this.#steers, input.streamId),
      ...(input.checkpoints
        ? {
            checkpoint: (step: TurnStep | null) =>
              new Promise<void>((resolve, reject) => emit({ type: 'checkpoint', step, written: (err) => (err ? reject(err) : resolve()) })),
          }
        : {}),
      ...(input.resume ? { resume: input.resume } : {}),
      emit,
    });
    // No boundary comes after the last answer: what is still queued goes back before `done`.
    loopDone();
    emit({ type: 'turn_done' });

    // After `done`: a short LLM title for a conversation that has just had its first exchange.
    const userTurns = session.messages.filter((m: Message) => m.role === 'user').length;
    if (!child && userTurns === 1 && !session.manual_title && !session.llm_title_generated && !signal.aborted) {
      try {
        const title = await generateTitle({ provider, model, messages: session.messages, signal });
        if (title) {
          emit({ type: 'patch', patch: { title, llm_title_generated: true } });
          emit(runEvent('title', { session_id: sid, title }));
        }
      } catch (err) {
        // The provisional title stays; a failed title is not worth failing a finished turn.
        this.options.logger.info({ msg: 'title generation skipped', session_id: sid, error: String((err as Error)?.message ?? err) });
      }
    }
  }

  #toolContext(input: TurnInput, config: AgentConfig, emit: (out: TurnOutput) => void, child: SubagentMarker | null, toolNames: string[]): ToolContext {
    const sid = input.session.session_id;
    const { hub } = this.options;
    const event: EmitEvent = (name, data) => emit(runEvent(name, data));
    const home = this.#home(input.home);
    if (!this.#todos.has(sid)) {
      const stored = input.session.todo_state as { todos?: TodoItem[] } | undefined;
      this.#todos.set(sid, Array.isArray(stored?.todos) ? stored.todos : []);
    }
    return {
      sessionId: sid,
      workspace: input.workspace,
      hermesHome: home.root,
      configPath: home.config.paths.config,
      host: this.options.host ?? unavailableHost,
      signal: input.signal,
      writeSafeRoots: parseWriteSafeRoots(config.env.HERMES_WRITE_SAFE_ROOT, (this.options.host ?? unavailableHost).homeDir),
      ...(config.web ? { web: { config: config.web, ...webSeams(this.options) } } : {}),
      emit: event,
      terminalSession: this.#terminalSession(sid, input.workspace),
      todos: {
        get: () => this.#todos.get(sid) ?? [],
        set: (items) => {
          this.#todos.set(sid, items);
          emit({ type: 'patch', patch: { todo_state: { todos: items, version: 1 } } });
        },
      },
      checkCommand: (command) =>
        checkShellCommand(
          {
            config,
            hub,
            sessionId: sid,
            streamId: input.streamId,
            signal: input.signal,
            event,
            hermesHome: home.root,
            addToAllowlist: (keys) => home.config.addToAllowlist(keys),
            smartNoted: this.#smartNoted,
            // Nobody watches a subagent's prompt: Hermes' delegation.subagent_auto_approve decides.
            ...(child
              ? {
                  unattended: (command: string, description: string) =>
                    config.delegation.subagentAutoApprove ? null : subagentApprovalRefusal(command, description),
                }
              : input.unattended === 'cron'
                ? { unattended: cronCommandDecision(config) }
                : {}),
          },
          command,
        ),
      fileEdits: fileEditGate({
        config,
        hub,
        sessionId: sid,
        streamId: input.streamId,
        signal: input.signal,
        event,
        ...(child ? { unattended: 'subagent' as const } : input.unattended === 'cron' ? { unattended: 'cron' as const } : {}),
      }),
      mcpTrustGate: async (request) =>
        input.unattended === 'cron'
          ? cronMcpRefusal(request.server, request.tool)
          : askMcpTrust(
              { hub, sessionId: sid, streamId: input.streamId, timeoutMs: config.approvals.timeoutSeconds * 1000, signal: input.signal, emit: event },
              request,
            ),
      clarify: async (question, choices) => {
        // A scheduled run: nobody can answer, so the model proceeds on its own judgement now.
        if (input.unattended) return null;
        const { pending, answer } = hub.requestClarify(sid, question, choices, this.options.clarifyTimeoutMs ?? 120_000, input.signal);
        event('clarify', { ...pending });
        return answer;
      },
      ...(this.options.childRuns && toolNames.includes('delegate_task')
        ? {
            subagents: subagentSpawner({
              deps: this.options.childRuns,
              runtime: this,
              parent: {
                sessionId: sid,
                workspace: input.workspace,
                model: input.model,
                depth: child?.depth ?? 0,
                toolNames,
                profile: input.home?.profile ?? input.session.profile,
                projectId: input.session.project_id,
                ...(input.home ? { home: input.home } : {}),
              },
              config: config.delegation,
              now: this.options.now,
              emit: event,
            }),
          }
        : {}),
    };
  }

  #terminalSession(sid: string, workspace: string): TerminalSessionState {
    // A new workspace for the session starts its shell over there.
    if (this.#cwds.get(sid)?.workspace !== workspace) this.#cwds.set(sid, { workspace, cwd: workspace });
    const processes = this.options.processes?.forSession(sid);
    return {
      cwd: () => this.#cwds.get(sid)?.cwd ?? workspace,
      setCwd: (dir) => this.#cwds.set(sid, { workspace, cwd: dir }),
      ...(processes ? { processes } : {}),
    };
  }

  // ---- Model catalog (GET /api/models) ------------------------------------------------------

  /**
   * The configured default plus every `custom_providers[].models` key as `custom:<name>:<model>`
   * (the id resolveProvider accepts). Read fresh, like a turn, so config edits show at once.
   */
  async models(options: { refresh?: boolean; home?: HermesHome } = {}): Promise<Catalog> {
    let config: AgentConfig;
    try {
      config = await this.#home(options.home).config.load();
    } catch (err) {
      if (err instanceof AgentConfigError) throw new BadRequest(err.message);
      throw err;
    }
    return this.catalog.get(config, { ...(options.refresh ? { refresh: true } : {}) });
  }

  /** Settings → Providers and the wizard for one profile; one setup per home, kept. */
  setupFor(home: HermesHome): BuiltinSetup {
    if (home.root === this.options.hermesHome) return this.setup;
    let setup = this.#setups.get(home.root);
    if (!setup) this.#setups.set(home.root, (setup = new BuiltinSetup(home.config, this.catalog, (model) => this.check(model, home))));
    return setup;
  }

  async setDefaultModel(model: string, home?: HermesHome): Promise<void> {
    try {
      await this.#home(home).config.setDefaultModel(model);
    } catch (err) {
      // A config.yaml that does not parse is left exactly as it is.
      throw new BadRequest((err as Error).message);
    }
  }
}
