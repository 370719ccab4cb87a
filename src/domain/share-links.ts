import type { ShareRecord } from '../ports/share-store.js';

/** The incumbent's token alphabet (`secrets.token_urlsafe`); anything else is never looked up. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** 18 random bytes, base64url (24 characters, 144 bits): `secrets.token_urlsafe(18)` as the incumbent mints it. */
export function newShareToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export const shareUrl = (token: string) => `/share/${token}`;

/** Whether a stored value has a share record's shape (a hand-edited file or row may not). */
export function isShareRecord(v: unknown): v is ShareRecord {
  const r = v as Partial<ShareRecord> | null;
  return !!r && typeof r === 'object' && typeof r.token === 'string' && typeof r.source_session_id === 'string' && Array.isArray(r.messages);
}

/** What `GET /api/share/<token>` answers (the incumbent's `_public_share_payload`): no token, session id or profile. */
export function publicShare(r: ShareRecord) {
  return {
    title: r.title || 'Untitled',
    messages: r.messages,
    message_count: r.message_count || r.messages.length,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** `share` in create's answer (the incumbent's fields). */
export function shareInfo(r: ShareRecord) {
  return { token: r.token, url: shareUrl(r.token), title: r.title, message_count: r.message_count, created_at: r.created_at, updated_at: r.updated_at };
}

/** The fields a session answer carries: the incumbent's `share_token` / `share_created_at`, and `share` for the menu. */
export function sessionShareFields(r: ShareRecord | null) {
  if (!r) return { share_token: null, share_created_at: null, share: null };
  return { share_token: r.token, share_created_at: r.created_at, share: { token: r.token, url: shareUrl(r.token), created_at: r.created_at } };
}
