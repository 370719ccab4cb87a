// The demo page's controls (a file of its own: the server's CSP allows no inline script).
const chat = document.getElementById('chat');
const log = document.getElementById('log');
for (const name of ['hermes-ready', 'hermes-message', 'hermes-run-start', 'hermes-run-end', 'hermes-approval', 'hermes-error'])
  chat.addEventListener(name, (e) => (log.textContent = `${name} ${JSON.stringify(e.detail).slice(0, 160)}\n` + log.textContent));
document.getElementById('theme').onchange = (e) => (chat.theme = e.target.value);
document.getElementById('compact').onchange = (e) => (chat.compact = e.target.checked);
document.getElementById('branded').onchange = (e) => chat.classList.toggle('branded', e.target.checked);
document.getElementById('new').onclick = () => chat.newSession();
document.getElementById('stop').onclick = () => chat.stop();
document.getElementById('hello').onclick = () => chat.send('Hello!');
