// The web app built without its i18n layer (bench/i18n.bench.mjs measures the layer as the difference;
// bench/panel-chunks.bench.mjs leaves it out of the control center's shell budget, the layer having its own).
// "Without" means the runtime replaced by stand-ins AND every call site written back as the English
// literal it wraps (msg('x') → 'x', msg(str`a ${b}`) → `a ${b}`, no @localized()), so the layer's
// cost counts everything translation adds to the bundle.
import { readFile } from 'node:fs/promises';
/** Stand-ins with the layer's exports and none of its work: English as written, nothing loaded. */
export const WITHOUT_LAYER = {
  name: 'without-i18n',
  setup(b) {
    b.onResolve({ filter: /^@lit\/localize$/ }, () => ({ path: 'lit-localize-stub', namespace: 'stub' }));
    b.onResolve({ filter: /(^|\/)localization\.js$/ }, () => ({ path: 'localization-stub', namespace: 'stub' }));
    b.onLoad({ filter: /^lit-localize-stub$/, namespace: 'stub' }, () => ({
      contents:
        'export const str=(s,...v)=>({strTag:true,strings:s,values:v});export const msg=(t)=>typeof t==="string"?t:t.strings.reduce((a,s,i)=>a+t.values[i-1]+s);export const localized=()=>(c)=>c;export const configureLocalization=()=>({getLocale:()=>"en",setLocale:()=>Promise.resolve()});',
    }));
    b.onLoad({ filter: /components\/.*\.ts$/ }, async (args) =>
      args.path.includes('/components/i18n/') ? undefined : { contents: asWritten(await readFile(args.path, 'utf8')), loader: 'ts' },
    );
    b.onLoad({ filter: /^localization-stub$/, namespace: 'stub' }, () => ({
      contents:
        'export const PSEUDO_LOCALE="en-XA";export const applyLanguage=()=>Promise.resolve();export const languageReady=()=>Promise.resolve();export const currentLocale=()=>"en";export const localeFor=()=>({code:"en",dir:"ltr"});export const switchLocale=()=>Promise.resolve();export const loadMessages=()=>Promise.resolve();export const loadScreen=(b,c)=>c();',
    }));
  },
};

const STR_CALL = /\bmsg\(\s*str(`(?:\\[\s\S]|\$\{(?:[^{}]|\{[^{}]*\})*\}|[^`\\$]|\$(?!\{))*`)\s*(?:,\s*\{[^}]*\}\s*)?\)/g;
const LITERAL_CALL = /\bmsg\(\s*('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\$])*`)\s*(?:,\s*\{[^}]*\}\s*)?\)/g;

/** A component's source with each msg() call as the English it wraps. */
export function asWritten(source) {
  return source
    .replace(STR_CALL, '$1')
    .replace(LITERAL_CALL, '$1')
    .replace(/^\s*@localized\(\)\s*$/gm, '');
}
