import { html, nothing } from 'lit';
import { msg, str } from '@lit/localize';
import type { ChatStore } from '../state/chat-store.js';
import { icons } from '../shared/icons.js';
import type { AttachmentList } from './attachments.js';
import { type BusyInput, type MessageMode, modeLabel } from './busy-input.js';

// Parts of <hermes-composer>'s template that read no state of their own: what the open session
// lets the composer do, the attachment chips, and the send / stop buttons.

/** What the composer may do in the open session, and what its input says. */
export interface ComposerMode {
  running: boolean;
  /** One of Hermes' own (CLI, Telegram …) read from state.db: continued here once imported. */
  fromHermes: boolean;
  hermesLabel: string;
  /** A compression snapshot opened for inspection: a record (the server refuses turns there). */
  snapshot: boolean;
  /** No new turn here (a delegate_task child, a Hermes session not imported, a snapshot); Stop still works. */
  viewOnly: boolean;
  placeholder: string;
}

export function composerMode(chat: ChatStore | undefined, busy: BusyInput, bot: string, placeholderText: string | null): ComposerMode {
  const running = !!chat && chat.status !== 'idle';
  const session = chat?.session as (ChatStore['session'] & { read_only?: unknown; source_label?: unknown }) | null | undefined;
  const fromHermes = session?.read_only === true;
  const hermesLabel = String(session?.source_label ?? 'Hermes');
  const tip = session?.canonical_visible_session_id;
  const snapshot = !!chat?.inspecting && !!tip && tip !== chat.sessionId;
  const viewOnly = session?.session_source === 'subagent' || fromHermes || snapshot;
  const placeholder = running
    ? busy.placeholder(bot)
    : fromHermes
      ? msg('Continue here to write in this conversation')
      : snapshot
        ? msg('A snapshot from before compression is read-only')
        : viewOnly
          ? msg('A subagent session is view-only: continue in its parent conversation')
          : (placeholderText ?? msg(str`Message ${bot} — / for commands`));
  return { running, fromHermes, hermesLabel, snapshot, viewOnly, placeholder };
}

/** The chips of the files attached to the next message (their element loads out of the shell). */
export function attachmentChips(attachments: AttachmentList) {
  if (!attachments.items.length) return nothing;
  return html`<div class="chips" data-role="attachments">
    ${attachments.items.map(
      (a) =>
        html`<hermes-attachment-chip
          .name=${a.name}
          .size=${a.size}
          .status=${a.status}
          .progress=${a.progress}
          .error=${a.error ?? ''}
          .extractable=${!!a.file}
          .extraction=${a.extraction}
          @hermes-attachment-remove=${() => attachments.remove(a.key)}
          @hermes-attachment-extract=${() => attachments.extract(a.key)}
        ></hermes-attachment-chip>`,
    )}
  </div>`;
}

/** Send, or while a reply runs: Stop, the send mode and Send in that mode. */
export function sendButtons(o: { running: boolean; canSend: boolean; busy: BusyInput; send(): void; stop(): void; focus(): void }) {
  if (!o.running) {
    return html`<button class="icon-button send primary" data-role="send" title=${msg('Send')} aria-label=${msg('Send')} ?disabled=${!o.canSend} @click=${o.send}>${icons.send()}</button>`;
  }
  const label = modeLabel(o.busy.mode).label;
  return html`<button class="icon-button stop outline" data-role="stop" title=${msg('Stop')} aria-label=${msg('Stop')} @click=${o.stop}>${icons.stop()}</button>
    <hermes-send-mode .mode=${o.busy.mode} .pick=${(m: MessageMode) => o.busy.pick(m, o.focus)}></hermes-send-mode>
    <button class="icon-button send primary" data-role="send-busy" title=${msg(str`Send (${label})`)} aria-label=${msg(str`Send: ${label}`)} ?disabled=${!o.canSend} @click=${o.send}>${icons.send()}</button>`;
}

/** A session of Hermes' own (read from state.db), offered to continue here. */
export function hermesImportNote(label: string, onImport: () => void) {
  return html`<div class="import-cli" data-role="import-cli-note">
    <span>${msg(str`A Hermes ${label} session, read from Hermes.`)}</span>
    <button class="primary" data-role="import-cli" @click=${onImport}>${msg('Continue here')}</button>
  </div>`;
}
