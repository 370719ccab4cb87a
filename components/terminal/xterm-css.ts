// xterm.js' own stylesheet as text, for the panel's shadow root: it travels in the terminal's
// lazy chunk, never in the shell's CSS.
import css from '@xterm/xterm/css/xterm.css' with { type: 'text' };

export default css as string;
