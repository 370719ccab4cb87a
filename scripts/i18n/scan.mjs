// @ts-check
// The one reading of the web app's sources for i18n: every msg() call (its id as @lit/localize
// computes it, its English text) and every user-facing string that does not go through msg()
// (static text and labelling attributes in html`` templates, UI-named properties given a
// literal). Used by `node scripts/i18n/extract.mjs` and by the tests that keep the layer whole.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { generateMsgId } from '@lit/localize/internal/id-generation.js';

/** The folders under components/ that hold no user-facing UI strings of their own. */
const SKIP_DIRS = new Set(['i18n', 'styles']);
/** Attributes a person reads or a screen reader speaks. */
const TEXT_ATTRIBUTES = ['title', 'aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'placeholder', 'alt', 'label'];
/** Object properties that, given a literal, are shown to people. */
const TEXT_PROPERTIES = new Set([
  'label',
  'title',
  'placeholder',
  'description',
  'hint',
  'tooltip',
  'ariaLabel',
  'heading',
  'empty',
  'emptyText',
  'confirmLabel',
  'summary',
  'help',
]);
const HAS_LETTER = /\p{L}/u;
const MARK = '\u0000';

/** @typedef {{ id: string, text: string, file: string, line: number, area: string }} Message */
/** @typedef {{ text: string, file: string, line: number, kind: 'text' | 'attribute' | 'property' | 'expression' }} Loose */

/** components/<area>/… → area; a file at the top level is "app". */
export function areaOf(/** @type {string} */ file) {
  const parts = file.split('/');
  return (parts.length > 2 ? parts[1] : undefined) ?? 'app';
}

/** @param {string} root */
export function sourceFiles(root) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (dir === join(root, 'components') && SKIP_DIRS.has(entry.name)) continue;
        walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(join(root, 'components'));
  return out.sort();
}

/** The cooked static parts of a template literal. @param {ts.TemplateLiteral} t */
function templateStrings(t) {
  if (ts.isNoSubstitutionTemplateLiteral(t)) return [t.text];
  return [t.head.text, ...t.templateSpans.map((s) => s.literal.text)];
}

/** Static text and labelling attributes with letters in one html`` template. @param {string[]} strings */
export function looseInTemplate(strings) {
  const joined = strings.join(MARK).replace(/<!--[\s\S]*?-->/g, '');
  /** @type {Array<{ text: string, kind: 'text' | 'attribute' }>} */
  const found = [];
  // Text between tags: what is outside every <…>.
  let depth = 0;
  let text = '';
  const flush = () => {
    for (const piece of text.split(MARK)) {
      const t = piece.trim();
      if (t && HAS_LETTER.test(t)) found.push({ text: t, kind: 'text' });
    }
    text = '';
  };
  let tag = '';
  for (const ch of joined) {
    if (ch === '<') {
      if (depth === 0) flush();
      depth++;
      tag = '';
    } else if (ch === '>' && depth > 0) {
      depth--;
      if (depth === 0) {
        const attr = new RegExp(`(?:^|\\s)(${TEXT_ATTRIBUTES.join('|')})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
        for (const m of tag.matchAll(attr)) {
          const value = (m[2] ?? m[3] ?? '').split(MARK).join(' ').trim();
          if (HAS_LETTER.test(value)) found.push({ text: value, kind: 'attribute' });
        }
      }
    } else if (depth === 0) text += ch;
    else tag += ch;
  }
  flush();
  return found;
}

/** @param {string} root @param {string} file */
export function scanFile(root, file) {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  /** @type {Message[]} */
  const messages = [];
  /** @type {Loose[]} */
  const loose = [];
  /** @type {string[]} */
  const problems = [];
  const line = (/** @type {ts.Node} */ n) => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  const area = areaOf(file);
  /** String literals an expression yields as its value (through ?:, ??, ||, &&, parentheses). @param {ts.Expression} e */
  const literalsShown = (e) => {
    if ((ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) && HAS_LETTER.test(e.text))
      loose.push({ text: e.text, file, line: line(e), kind: 'expression' });
    else if (ts.isParenthesizedExpression(e)) literalsShown(e.expression);
    else if (ts.isConditionalExpression(e)) {
      literalsShown(e.whenTrue);
      literalsShown(e.whenFalse);
    } else if (
      ts.isBinaryExpression(e) &&
      [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(e.operatorToken.kind)
    ) {
      literalsShown(e.left);
      literalsShown(e.right);
    }
  };
  /** Inside msg(…): its literal is the message, nothing in it is loose. */
  const visit = (/** @type {ts.Node} */ node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'msg') {
      const [arg, options] = node.arguments;
      /** @type {string | string[] | null} */
      let strings = null;
      if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) strings = arg.text;
      else if (arg && ts.isTaggedTemplateExpression(arg) && ts.isIdentifier(arg.tag) && arg.tag.text === 'str') {
        strings = templateStrings(arg.template);
        if (strings.length === 1) strings = strings[0] ?? '';
      }
      if (strings === null) problems.push(`${file}:${line(node)}: msg() takes a string literal or a str\`\` template (html\`\` messages are not used here)`);
      else {
        // As @lit/localize's runtime computes it: a str`` template's static parts, or the string.
        let id = generateMsgId(strings, false);
        if (options && ts.isObjectLiteralExpression(options)) {
          for (const p of options.properties) {
            if (ts.isPropertyAssignment(p) && p.name.getText(source) === 'id' && ts.isStringLiteral(p.initializer)) id = p.initializer.text;
          }
        }
        const text = typeof strings === 'string' ? strings : strings.map((s, i) => (i === 0 ? s : `\${${i - 1}}${s}`)).join('');
        messages.push({ id, text, file, line: line(node), area });
      }
      return;
    }
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'html' || node.tag.text === 'svg')) {
      for (const f of looseInTemplate(templateStrings(node.template))) loose.push({ ...f, file, line: line(node) });
      // A literal written straight into a binding (`${busy ? 'Stop' : 'Send'}`) is shown as it is.
      // In an attribute binding, only where the attribute or property is one people read (not role=, aria-current=).
      if (ts.isTemplateExpression(node.template)) {
        const parts = templateStrings(node.template);
        node.template.templateSpans.forEach((span, i) => {
          const binding = /([.?@]?)([\w-]+)\s*=\s*["']?$/.exec(parts[i] ?? '');
          if (!binding || (binding[1] !== '?' && binding[1] !== '@' && (TEXT_ATTRIBUTES.includes(binding[2] ?? '') || TEXT_PROPERTIES.has(binding[2] ?? ''))))
            literalsShown(span.expression);
        });
      }
    }
    if (ts.isPropertyAssignment(node) && TEXT_PROPERTIES.has(node.name.getText(source).replace(/['"]/g, ''))) {
      const v = node.initializer;
      if ((ts.isStringLiteral(v) || ts.isNoSubstitutionTemplateLiteral(v)) && HAS_LETTER.test(v.text))
        loose.push({ text: v.text, file, line: line(v), kind: 'property' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { messages, loose, problems };
}

/** Every file's messages and loose strings. @param {string} root */
export function scan(root) {
  /** @type {Message[]} */
  const messages = [];
  /** @type {Loose[]} */
  const loose = [];
  /** @type {string[]} */
  const problems = [];
  for (const file of sourceFiles(root)) {
    const r = scanFile(root, file);
    messages.push(...r.messages);
    loose.push(...r.loose);
    problems.push(...r.problems);
  }
  return { messages, loose, problems };
}
