import { msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import { chatControls } from '../api/chat-controls.js';
import { sessionOps } from '../api/session-ops.js';
import { statusLines } from './status-card.js';
import type { ChatStore } from '../state/chat-store.js';
import type { Unsent } from '../state/turns.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { emit } from '../events.js';
import { REASONING_CHANGED } from './hermes-reasoning-chip.js';
import { compressSession } from './compress-action.js';
import { usageCommand } from './usage-command.js';
import type { MessageMode } from './busy-input.js';
import { workspacesApi } from '../api/workspaces.js';
import { findWorkspace, knownWorkspaces, rememberWorkspaces } from './workspace-switch.js';
import { SKILL_SLASH_COMMANDS, skillSuggestions, useSuggestions } from './skill-slash.js';
import { SKIN_IDS } from '../../src/shared/skin-ids.js';

/** What a command may touch: the stores, plus the composer's own text, model and attachments. */
export interface CommandContext {
  chat: ChatStore;
  ui: UiStore;
  sessions: SessionsStore | undefined;
  /** Events (hermes-open-session) are dispatched from here. */
  host: HTMLElement;
  models: string[];
  currentModel(): string | null;
  setModel(id: string): Promise<void>;
  /** The workspace the chip shows; setWorkspace moves the open session (or the next new one) there. */
  currentWorkspace(): string;
  setWorkspace(path: string, name?: string): Promise<void>;
  setText(text: string): void;
  restoreAttachments(paths: string[]): void;
  /** Sends `text` in that busy mode while a turn runs, normally when idle (/queue, /interrupt). */
  sendAs?(mode: MessageMode, text: string): Promise<void>;
  /** Opens the Saved prompts menu (/prompts); absent where the composer has none. */
  openPrompts?(): void;
}

export interface SlashCommand {
  name: string;
  args?: string;
  description: string;
  run(ctx: CommandContext, arg: string): Promise<void> | void;
}

/** One row of the autocomplete menu; `complete` is what Tab writes into the input. */
export interface SlashItem {
  label: string;
  hint: string;
  description: string;
  complete: string;
  /** Enter runs this text at once; otherwise Enter completes (the command wants an argument). */
  runnable: boolean;
}

export const THEMES = ['dark', 'light', 'system'] as const;
/** What `/theme` also takes, as the incumbent's does: a skin name. */
const SKIN_NAMES: readonly string[] = SKIN_IDS;
/** `/reasoning` words: the display switch, then the levels Hermes accepts for agent.reasoning_effort. */
export const REASONING_ARGS = ['show', 'hide', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

/** Toasts and stops: a command that cannot run now says why instead of half-running. */
class Refusal extends Error {}
function need(ok: unknown, why: string): asserts ok {
  if (!ok) throw new Refusal(why);
}
const sessionOf = (ctx: CommandContext) => {
  need(ctx.chat.sessionId, msg('Start a conversation first.'));
  return ctx.chat.sessionId!;
};
const idleOf = (ctx: CommandContext) => need(ctx.chat.status === 'idle', msg('Wait for the current reply to finish (or /stop it).'));

/** Drops the last exchange (from its user message on) and hands back what the user had sent. */
async function dropLastExchange(ctx: CommandContext): Promise<Unsent | null> {
  sessionOf(ctx);
  idleOf(ctx);
  return ctx.chat.undo();
}

/** /queue and /interrupt: the composer sends it (idle: as a normal message). */
async function sendAs(ctx: CommandContext, mode: MessageMode, text: string): Promise<void> {
  need(text, msg(str`Type the message after /${mode}.`));
  need(ctx.sendAs, msg(str`/${mode} is not available here.`));
  await ctx.sendAs(mode, text);
}

/** `/compress` and `/compact`: the job (compress-action.ts, shared with the context ring), then its divider. */
async function compress(ctx: CommandContext, focus: string): Promise<void> {
  const sid = sessionOf(ctx);
  idleOf(ctx);
  await compressSession(ctx.chat, ctx.ui, sid, focus);
}

/** What the composer says when the running turn did not take a steer, by the incumbent's fallback name. */
function steerRefused(fallback: string | null | undefined): string {
  if (fallback === 'gateway_steer_queued') return msg('This agent cannot steer a running reply; queue the message instead.');
  if (fallback === 'not_running') return msg('The reply has just finished; send it as a new message.');
  if (fallback === 'stream_dead') return msg('The reply stopped; send it as a new message.');
  if (fallback === 'session_not_found') return msg('This conversation no longer exists.');
  return msg(str`The reply could not take it (${fallback ?? 'unknown'}).`);
}

/** `/steer <text>`: into the running turn at its next tool step; idle, it is an ordinary message. */
async function steer(ctx: CommandContext, text: string): Promise<void> {
  need(text, msg('Type what the agent should take into account: /steer <text>'));
  if (ctx.chat.status === 'idle') {
    // Nothing to steer: the text goes out as a message (or waits in the input without a conversation).
    if (!ctx.chat.targetId) return ctx.setText(text);
    return ctx.chat.send(text);
  }
  // In the composer, Send's steer path decides (a refusal queues the message, as Send does).
  if (ctx.sendAs) return ctx.sendAs('steer', text);
  const r = await ctx.chat.steer(text);
  if (r.accepted) return ctx.ui.notify(msg('Steer sent: the agent sees it after its current step.'));
  // Nothing typed is lost: the text goes back into the input.
  ctx.setText(text);
  ctx.ui.notify(steerRefused(r.fallback), 'error');
}

export const COMMANDS: SlashCommand[] = [
  {
    name: 'new',
    get description() {
      return msg('Start a new chat');
    },
    run: (ctx) => emit(ctx.host, 'hermes-open-session', { sessionId: null }),
  },
  {
    name: 'clear',
    get description() {
      return msg('Clear this conversation');
    },
    async run(ctx) {
      const sid = sessionOf(ctx);
      idleOf(ctx);
      const { session } = await api.clear(sid);
      await ctx.chat.reload();
      ctx.sessions?.patch(sid, session);
      ctx.ui.notify(msg('Conversation cleared.'));
    },
  },
  {
    name: 'model',
    args: '<id>',
    get description() {
      return msg('Switch the model');
    },
    async run(ctx, arg) {
      const current = ctx.currentModel() ?? msg('none configured');
      if (!arg) return ctx.ui.notify(msg(str`Model: ${current}`));
      await ctx.setModel(arg);
      ctx.ui.notify(msg(str`Model set to ${arg}.`));
    },
  },
  {
    name: 'title',
    args: '<text>',
    get description() {
      return msg('Rename this conversation');
    },
    async run(ctx, arg) {
      const sid = sessionOf(ctx);
      if (!arg) return ctx.ui.notify(msg(str`Title: ${ctx.chat.session?.title ?? ''}`));
      const { session } = await api.rename(sid, arg);
      if (ctx.chat.session?.session_id === sid) ctx.chat.session = { ...ctx.chat.session, title: session.title };
      ctx.sessions?.patch(sid, { title: session.title });
      ctx.ui.notify(msg(str`Renamed to “${session.title}”.`));
    },
  },
  {
    name: 'retry',
    get description() {
      return msg('Send the last message again');
    },
    async run(ctx) {
      sessionOf(ctx);
      idleOf(ctx);
      if (!(await ctx.chat.retry())) return ctx.ui.notify(msg('Nothing to retry.'));
    },
  },
  {
    name: 'undo',
    get description() {
      return msg('Remove the last exchange, back into the composer');
    },
    async run(ctx) {
      const sent = await dropLastExchange(ctx);
      if (!sent) return ctx.ui.notify(msg('Nothing to undo.'));
      ctx.setText(sent.text);
      ctx.restoreAttachments(sent.paths);
    },
  },
  {
    name: 'stop',
    get description() {
      return msg('Stop the current reply');
    },
    async run(ctx) {
      if (ctx.chat.status === 'idle') return ctx.ui.notify(msg('Nothing is running.'));
      await ctx.chat.cancel();
    },
  },
  {
    name: 'queue',
    args: '<message>',
    get description() {
      return msg('Send a message after the current turn ends');
    },
    run: (ctx, arg) => sendAs(ctx, 'queue', arg),
  },
  {
    name: 'interrupt',
    args: '<message>',
    get description() {
      return msg('Stop the current turn and send a message');
    },
    run: (ctx, arg) => sendAs(ctx, 'interrupt', arg),
  },
  {
    name: 'steer',
    args: '<text>',
    get description() {
      return msg('Guide the running reply at its next step (sends normally when idle)');
    },
    run: steer,
  },
  {
    name: 'compress',
    args: '[focus]',
    get description() {
      return msg('Summarise the conversation so far (optionally around a focus)');
    },
    run: compress,
  },
  {
    name: 'compact',
    get description() {
      return msg('Compress the context');
    },
    run: (ctx) => compress(ctx, ''),
  },
  {
    name: 'usage',
    args: '[on|off]',
    get description() {
      return msg('Show this session’s tokens and cost (on/off: the usage line under answers)');
    },
    run: (ctx, arg) => usageCommand(ctx, arg, sessionOf),
  },
  {
    name: 'yolo',
    get description() {
      return msg('Toggle running commands without approval');
    },
    async run(ctx) {
      const sid = sessionOf(ctx);
      const res = await fetch(`/api/session/yolo?session_id=${encodeURIComponent(sid)}`, { credentials: 'same-origin' });
      const now = res.ok ? Boolean((await res.json()).yolo_enabled) : false;
      const { yolo_enabled } = await api.setYolo(sid, !now);
      ctx.ui.notify(yolo_enabled ? msg('YOLO on: commands run without asking in this session.') : msg('YOLO off: risky commands ask for approval again.'));
    },
  },
  {
    name: 'branch',
    get description() {
      return msg('Fork this conversation');
    },
    async run(ctx) {
      sessionOf(ctx);
      const fork = await ctx.chat.fork();
      void ctx.sessions?.refresh();
      emit(ctx.host, 'hermes-open-session', { sessionId: fork.session_id });
      ctx.ui.notify(msg(str`Forked as “${fork.title}”.`));
    },
  },
  {
    name: 'theme',
    args: '<dark|light|system|skin>',
    get description() {
      return msg('Switch the colour theme or the skin');
    },
    async run(ctx, arg) {
      const name = arg.toLowerCase();
      if (SKIN_NAMES.includes(name)) return void (await ctx.ui.save({ skin: name }));
      need((THEMES as readonly string[]).includes(name), msg(str`Unknown theme or skin “${arg}”: use dark, light, system or one of ${SKIN_NAMES.join(', ')}.`));
      await ctx.ui.save({ theme: name as (typeof THEMES)[number] });
    },
  },
  {
    name: 'reasoning',
    args: '<show|hide|level>',
    get description() {
      return msg('Show or hide reasoning, or set the effort');
    },
    async run(ctx, arg) {
      const typed = arg.toLowerCase();
      const model = ctx.currentModel();
      if (!typed) {
        const s = await chatControls.reasoning(model);
        const effort = s.reasoning_effort || 'default';
        return ctx.ui.notify(s.show_reasoning ? msg(str`Reasoning effort: ${effort} · shown: yes`) : msg(str`Reasoning effort: ${effort} · shown: no`));
      }
      // on/off are the CLI's synonyms for show/hide.
      const word = ({ on: 'show', off: 'hide' } as Record<string, string>)[typed] ?? typed;
      need(
        (REASONING_ARGS as readonly string[]).includes(word),
        msg(str`Unknown /reasoning “${arg}”: use show, hide or one of none, minimal, low, medium, high, xhigh, max.`),
      );
      const display = word === 'show' || word === 'hide';
      const s = await chatControls.setReasoning(display ? { display: word } : { effort: word }, model);
      // The web app's own thinking switch follows the CLI's, as in the incumbent.
      if (display) await ctx.ui.save({ show_thinking: s.show_reasoning });
      window.dispatchEvent(new Event(REASONING_CHANGED));
      ctx.ui.notify(display ? (s.show_reasoning ? msg('Reasoning shown.') : msg('Reasoning hidden.')) : msg(str`Reasoning effort set to ${word}.`));
    },
  },
  {
    name: 'status',
    get description() {
      return msg('Show this session’s model, workspace, size and usage');
    },
    async run(ctx) {
      const status = await sessionOps.status(sessionOf(ctx));
      ctx.ui.notify(statusLines(status).join('\n'));
    },
  },
  {
    name: 'personality',
    args: '[name|none]',
    get description() {
      return msg('Use one of config.yaml’s personalities in this session');
    },
    async run(ctx, arg) {
      const sid = sessionOf(ctx);
      const list = await sessionOps.personalities();
      if (!arg) {
        need(list.length, msg('No personalities in config.yaml (agent.personalities).'));
        const current = ctx.chat.session?.personality;
        const names = list.map((p) => (p.name === current ? msg(str`${p.name} (current)`) : p.name)).join(', ');
        return ctx.ui.notify(msg(str`Personalities: ${names}`));
      }
      const name = ['none', 'clear', 'off', 'default'].includes(arg.toLowerCase()) ? '' : arg;
      const { personality } = await sessionOps.setPersonality(sid, name);
      ctx.chat.patchSession({ personality });
      ctx.ui.notify(personality ? msg(str`Personality set to ${personality}.`) : msg('Personality cleared.'));
    },
  },
  {
    name: 'workspace',
    args: '[name|path]',
    get description() {
      return msg('List the workspaces, or switch to one');
    },
    async run(ctx, arg) {
      const list = (await workspacesApi.list()).workspaces;
      rememberWorkspaces(list);
      const current = ctx.currentWorkspace();
      const listed = list.map((w) => `${w.path === current ? '✓ ' : ''}${w.name} (${w.path})`).join(' · ');
      if (!arg) return ctx.ui.notify(msg(str`Workspaces: ${listed}`));
      const w = findWorkspace(list, arg);
      need(w, msg(str`No workspace matches “${arg}”: type /workspace to list them.`));
      await ctx.setWorkspace(w.path, w.name);
    },
  },
  {
    name: 'terminal',
    get description() {
      return msg('Open a shell in the workspace, above the composer');
    },
    run: (ctx) => {
      sessionOf(ctx);
      emit(ctx.host, 'hermes-terminal-open', null);
    },
  },
  {
    name: 'prompts',
    get description() {
      return msg('Saved prompts: insert one, or save what you typed');
    },
    run: (ctx) => {
      need(ctx.openPrompts, msg('/prompts is not available here.'));
      ctx.openPrompts();
    },
  },
  {
    name: 'help',
    get description() {
      return msg('List the commands');
    },
    run: (ctx) =>
      ctx.ui.notify(
        msg(str`Commands: ${COMMANDS.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''}`).join(' · ')}. Any other /word is sent to the agent as it is.`),
      ),
  },
  // /skills and /use (skill-commands.ts).
  ...SKILL_SLASH_COMMANDS,
];

/** `/name rest` → its parts; null when the text is not a command. */
export function parseCommand(text: string): { name: string; arg: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!.toLowerCase(), arg: (m[2] ?? '').trim() } : null;
}

/** The built-in command names: a skill whose name collides with one gets no `/<name>` of its own. */
export const COMMAND_NAMES = () => COMMANDS.map((c) => c.name);

/** Whether the line names one of the commands here (anything else starting with `/` is a message). */
export function isCommand(text: string): boolean {
  const parsed = parseCommand(text);
  return !!parsed && COMMANDS.some((c) => c.name === parsed.name);
}

/**
 * Runs a command line; refusals become toasts. Resolves false when it was not run (so the
 * composer keeps the text). Lines that name no command here (`/deploy`, `/usr/bin is gone`)
 * are not commands: the composer sends them to the agent as text, as the incumbent does.
 */
export async function runCommand(ctx: CommandContext, text: string): Promise<boolean> {
  const parsed = parseCommand(text);
  const command = parsed && COMMANDS.find((c) => c.name === parsed.name);
  if (!parsed || !command) return false;
  try {
    await command.run(ctx, parsed.arg);
    return true;
  } catch (err) {
    ctx.ui.notify((err as Error).message, err instanceof Refusal ? 'info' : 'error');
    return false;
  }
}

const ranked = <T>(items: T[], key: (t: T) => string, needle: string) => [
  ...items.filter((t) => key(t).startsWith(needle)),
  ...items.filter((t) => !key(t).startsWith(needle) && key(t).includes(needle)),
];

/** Menu rows for what is typed: command names, then arguments of /model, /theme and /reasoning. */
export function suggestions(text: string, models: string[]): SlashItem[] {
  const name = /^\/(\S*)$/.exec(text);
  if (name) {
    const builtins = ranked(COMMANDS, (c) => c.name, name[1]!.toLowerCase()).map((c) => ({
      label: `/${c.name}`,
      hint: c.args ?? '',
      description: c.description,
      complete: c.args && !c.args.startsWith('[') ? `/${c.name} ` : `/${c.name}`,
      // `[…]` arguments are optional: Enter runs the bare command.
      runnable: !c.args || c.args.startsWith('['),
    }));
    // Then every enabled skill as `/<skill-name>`, as Hermes' CLI offers them.
    return [...builtins, ...skillSuggestions(name[1]!, COMMAND_NAMES())];
  }
  const use = /^\/use\s+(\S*)$/i.exec(text);
  if (use) return useSuggestions(use[1]!);
  const ws = /^\/workspace\s+(.*)$/i.exec(text);
  if (ws) {
    const typed = ws[1]!.toLowerCase();
    return ranked([...knownWorkspaces()], (w) => w.name.toLowerCase(), typed).map((w) => ({
      label: w.name,
      hint: w.path,
      description: '',
      complete: `/workspace ${w.name}`,
      runnable: true,
    }));
  }
  const arg = /^\/(model|theme|reasoning)\s+(\S*)$/i.exec(text);
  if (!arg) return [];
  const cmd = arg[1]!.toLowerCase();
  const values = cmd === 'theme' ? [...THEMES, ...SKIN_NAMES] : cmd === 'reasoning' ? [...REASONING_ARGS] : models;
  return ranked(values, (v) => v.toLowerCase(), arg[2]!.toLowerCase()).map((v) => ({
    label: v,
    hint: '',
    description: '',
    complete: `/${cmd} ${v}`,
    runnable: true,
  }));
}
