// The embeddable <hermes-chat> element: its own bundle (public/embed/hermes-chat.js), built by
// scripts/build-embed.mjs. Importing this module defines the element.
export { HermesChat, type HermesChatEventMap } from './embed/hermes-chat.js';
export { configureApi } from './api/client.js';
