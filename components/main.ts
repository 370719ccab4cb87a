// The browser entry: design tokens, then the application shell.
import './styles/tokens.css';
import './app/hermes-app.js';
