import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { baseStyles } from '../shared/styles.js';
import { api } from '../api/client.js';

/** A same-origin path: one slash, then anything but a second slash or a backslash. */
const LOCAL_PATH = /^\/(?![/\\])/;

/**
 * Where to go after signing in: `?next=` when it is a path on this site, else `/`.
 * `//host` and `/\host` would leave the site, and so would `/\t/host` once the URL parser
 * drops the tab, or `/..//host` once it resolves the dots: so the value is resolved as the
 * browser would, and must still be a plain path of this origin afterwards.
 */
export function nextUrl(search = location.search, origin = location.origin): string {
  const next = new URLSearchParams(search).get('next') ?? '';
  if (!LOCAL_PATH.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return '/';
  }
  const path = url.pathname + url.search + url.hash;
  if (url.origin !== origin || !LOCAL_PATH.test(path)) return '/';
  // Back to the sign-in page would only bounce.
  return url.pathname === '/login' ? '/' : path;
}

/**
 * The sign-in page (`/login`): the bot's name, a password, and the server's answer.
 */
@customElement('hermes-login')
@localized()
export class HermesLogin extends LitElement {
  @state() private botName = 'Hermes';
  @state() private busy = false;
  @state() private error = '';
  /** Only a refused password marks the field; "not enabled" is not the user's typo. */
  @state() private invalid = false;

  /** Leaves the page after a successful sign-in (tests replace it). */
  navigate = (url: string) => location.assign(url);

  override connectedCallback(): void {
    super.connectedCallback();
    // No password, or already signed in (another tab, the back button): nothing to do here.
    api.authStatus().then(
      (status) => (!status.auth_enabled || status.logged_in) && this.navigate(nextUrl()),
      () => {},
    );
    // Settings may be closed to strangers; the name is a nicety, "Hermes" will do.
    fetch('/api/settings', { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : null))
      .then((s) => typeof s?.bot_name === 'string' && s.bot_name && (this.botName = s.bot_name))
      .catch(() => {});
  }

  override firstUpdated(): void {
    this.renderRoot.querySelector('input')?.focus();
  }

  async #submit(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const input = this.renderRoot.querySelector('input')!;
    if (!input.value || this.busy) return;
    this.busy = true;
    this.error = '';
    this.invalid = false;
    try {
      const res = await fetch('/api/auth/login', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ password: input.value }),
      });
      if (res.ok) return this.navigate(nextUrl());
      const body = await res.json().catch(() => ({}));
      this.invalid = res.status === 401;
      if (res.status === 404) this.error = msg('Password login is not enabled on this server');
      else if (typeof body.error === 'string') this.error = body.error;
      else this.error = res.status === 401 ? msg('Wrong password') : msg(str`Sign-in failed (${res.status})`);
      input.select();
    } catch {
      this.error = msg('The server cannot be reached. Check your connection.');
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`
      <form class="card" @submit=${this.#submit} aria-labelledby="title">
        <h1 id="title">${this.botName}</h1>
        <p class="meta">${msg('Sign in to continue.')}</p>
        <label for="password">${msg('Password')}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required aria-invalid=${this.invalid ? 'true' : 'false'} aria-describedby="error" />
        <p id="error" class="error" role="alert">${this.error || nothing}</p>
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? msg('Signing in…') : msg('Sign in')}</button>
      </form>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: grid;
        place-items: center;
        min-height: 100dvh;
        padding: var(--hermes-space-lg);
        background: var(--hermes-bg);
        color: var(--hermes-fg);
      }
      .card {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
        width: min(360px, 100%);
        padding: var(--hermes-space-xl);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-lg);
      }
      h1 {
        margin: 0;
        font-family: var(--hermes-font-serif);
        font-weight: 400;
        font-size: var(--hermes-text-h1);
      }
      .meta {
        margin: 0 0 var(--hermes-space-sm);
      }
      label {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      input {
        min-height: 40px;
        padding: var(--hermes-space-sm) var(--hermes-space-md);
      }
      input[aria-invalid='true'] {
        border-color: var(--hermes-color-error);
      }
      .error {
        margin: 0;
        min-height: 1lh;
        color: var(--hermes-color-error);
        font-size: var(--hermes-text-label);
      }
      button {
        min-height: var(--hermes-touch-target);
        font-weight: 500;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-login': HermesLogin;
  }
}
