// The browser entry: design tokens, then the application shell, then (after load) the
// service worker that keeps the app usable offline.
import './styles/tokens.css';
import './styles/skins.css';
import './app/hermes-app.js';
import { updates } from './offline/sw-register.js';
import { offlineCache } from './offline/cache.js';

// Opened now, beside the first requests: a transcript shown later is written without waiting for it.
offlineCache.open();

if (document.readyState === 'complete') void updates.register();
else window.addEventListener('load', () => void updates.register(), { once: true });
