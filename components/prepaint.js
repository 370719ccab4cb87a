// Runs before first paint (a blocking classic script in <head>, so the CSP needs no inline
// script): the theme, skin, font size, language (lang, dir) and panel state the user left, so nothing flashes.
(() => {
  try {
    const d = document.documentElement;
    d.dataset.theme = localStorage.getItem('hermes:theme') || 'dark';
    d.dataset.skin = localStorage.getItem('hermes:skin') || 'default';
    d.dataset.fontSize = localStorage.getItem('hermes:font-size') || 'default';
    const language = JSON.parse(localStorage.getItem('hermes:language') || 'null');
    if (language && typeof language.code === 'string') {
      d.lang = language.code;
      d.dir = language.dir === 'rtl' ? 'rtl' : 'ltr';
    }
  } catch {
    /* storage unavailable: the defaults stand */
  }
})();
