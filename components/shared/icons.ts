import { svg, type SVGTemplateResult } from 'lit';

/** Small line icons (24×24 viewBox, currentColor), so no icon font or image request. */
const icon = (paths: SVGTemplateResult, size = 16) =>
  svg`<svg width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${paths}</svg>`;

export const icons = {
  plus: () => icon(svg`<path d="M12 5v14M5 12h14"/>`),
  search: () => icon(svg`<circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/>`),
  menu: () => icon(svg`<path d="M4 6h16M4 12h16M4 18h16"/>`),
  more: () => icon(svg`<circle cx="5" cy="12" r="1"/><circle cx="12" cy="12" r="1"/><circle cx="19" cy="12" r="1"/>`),
  pin: () => icon(svg`<path d="M12 17v5M9 3h6l-1 7 4 3H6l4-3z"/>`),
  folder: () => icon(svg`<path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"/>`),
  file: () => icon(svg`<path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z"/><path d="M14 3v5h5"/>`),
  chevron: () => icon(svg`<path d="m9 6 6 6-6 6"/>`),
  close: () => icon(svg`<path d="M6 6l12 12M18 6 6 18"/>`),
  link: () => icon(svg`<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1"/><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>`),
  copy: () => icon(svg`<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h8"/>`),
  edit: () => icon(svg`<path d="M4 20h4L19 9l-4-4L4 16z"/>`),
  /** Saved prompts (a bookmark). */
  bookmark: () => icon(svg`<path d="M7 4h10v16l-5-4-5 4z"/>`),
  retry: () => icon(svg`<path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7"/>`),
  fork: () =>
    icon(
      svg`<circle cx="6" cy="5" r="2"/><circle cx="18" cy="5" r="2"/><circle cx="12" cy="19" r="2"/><path d="M6 7v2a4 4 0 0 0 4 4h4a4 4 0 0 0 4-4V7M12 13v4"/>`,
    ),
  stop: () => icon(svg`<rect x="6" y="6" width="12" height="12" rx="2"/>`),
  speaker: () => icon(svg`<path d="M4 9v6h4l5 4V5L8 9z"/><path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11"/>`),
  send: () => icon(svg`<path d="M12 19V5M5 12l7-7 7 7"/>`),
  attach: () => icon(svg`<path d="m21 11-8.5 8.5a5 5 0 0 1-7-7L14 4a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 7"/>`),
  terminal: () => icon(svg`<path d="m5 8 4 4-4 4M12 16h7"/>`),
  tool: () => icon(svg`<path d="M14 7a4 4 0 0 0-5 5l-5 5 3 3 5-5a4 4 0 0 0 5-5l-2 2-2-2z"/>`),
  check: () => icon(svg`<path d="m5 12 5 5 9-10"/>`),
  alert: () => icon(svg`<path d="M12 4 2 20h20z"/><path d="M12 10v4M12 17h.01"/>`),
  settings: (size?: number) =>
    icon(svg`<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1"/>`, size),
  panel: () => icon(svg`<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M15 4v16"/>`),
  sidebar: () => icon(svg`<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M9 4v16"/>`),
  upload: () => icon(svg`<path d="M12 20V8M6 14l6-6 6 6M5 4h14"/>`),
  download: () => icon(svg`<path d="M12 4v12M6 10l6 6 6-6M5 20h14"/>`),
  archive: () => icon(svg`<rect x="3" y="4" width="18" height="5" rx="1"/><path d="M5 9v10h14V9M10 13h4"/>`),
  trash: () => icon(svg`<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13"/>`),
  // Turned by a CSS animation (baseStyles .spin), not SMIL: prefers-reduced-motion can stop CSS, not <animate>.
  spinner: () => icon(svg`<path class="spin" data-role="spinner" d="M12 3a9 9 0 1 0 9 9"/>`),
  think: () => icon(svg`<path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-4 10.5V16h8v-2.5A6 6 0 0 0 12 3z"/>`),
  // The control center's rail (20 px there; `size` is optional like every icon's default).
  chat: (size?: number) => icon(svg`<path d="M4 5h16v11H10l-6 4z"/>`, size),
  tasks: (size?: number) => icon(svg`<circle cx="12" cy="12" r="8"/><path d="M12 8v4l3 2"/>`, size),
  skills: (size?: number) => icon(svg`<path d="M5 4h12a2 2 0 0 1 2 2v14H7a2 2 0 0 1-2-2z"/><path d="M5 18a2 2 0 0 1 2-2h12M9 8h6"/>`, size),
  memory: (size?: number) =>
    icon(
      svg`<path d="M12 5a3 3 0 0 0-5.6-1.5A3 3 0 0 0 4 8a3 3 0 0 0 0 6 3 3 0 0 0 3 5 3 3 0 0 0 5 1z"/><path d="M12 5a3 3 0 0 1 5.6-1.5A3 3 0 0 1 20 8a3 3 0 0 1 0 6 3 3 0 0 1-3 5 3 3 0 0 1-5 1"/>`,
      size,
    ),
  todos: (size?: number) => icon(svg`<path d="M10 6h10M10 12h10M10 18h10M4 6l1.5 1.5L8 5M4 12l1.5 1.5L8 11M4 18l1.5 1.5L8 17"/>`, size),
  insights: (size?: number) => icon(svg`<path d="M4 20h16M7 16v-5M12 16V6M17 16v-8"/>`, size),
  profiles: (size?: number) => icon(svg`<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>`, size),
  logs: (size?: number) => icon(svg`<rect x="5" y="3" width="14" height="18" rx="2"/><path d="M9 8h6M9 12h6M9 16h3"/>`, size),
  grid: (size?: number) =>
    icon(
      svg`<rect x="4" y="4" width="6" height="6" rx="1"/><rect x="14" y="4" width="6" height="6" rx="1"/><rect x="4" y="14" width="6" height="6" rx="1"/><rect x="14" y="14" width="6" height="6" rx="1"/>`,
      size,
    ),
};
