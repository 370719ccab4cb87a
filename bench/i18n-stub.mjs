// The web app built without its i18n layer (bench/i18n.bench.mjs measures the layer as the difference;
// bench/panel-chunks.bench.mjs leaves it out of the control center's shell budget, the layer having its own).
/** Stand-ins with the layer's exports and none of its work: English as written, nothing loaded. */
export const WITHOUT_LAYER = {
  name: 'without-i18n',
  setup(b) {
    b.onResolve({ filter: /^@lit\/localize$/ }, () => ({ path: 'lit-localize-stub', namespace: 'stub' }));
    b.onResolve({ filter: /i18n\/localization\.js$/ }, () => ({ path: 'localization-stub', namespace: 'stub' }));
    b.onLoad({ filter: /^lit-localize-stub$/, namespace: 'stub' }, () => ({
      contents:
        'export const str=(s,...v)=>({strTag:true,strings:s,values:v});export const msg=(t)=>typeof t==="string"?t:t.strings.reduce((a,s,i)=>a+t.values[i-1]+s);export const localized=()=>(c)=>c;export const configureLocalization=()=>({getLocale:()=>"en",setLocale:()=>Promise.resolve()});',
    }));
    b.onLoad({ filter: /^localization-stub$/, namespace: 'stub' }, () => ({
      contents:
        'export const PSEUDO_LOCALE="en-XA";export const applyLanguage=()=>Promise.resolve();export const languageReady=()=>Promise.resolve();export const currentLocale=()=>"en";export const localeFor=()=>({code:"en",dir:"ltr"});',
    }));
  },
};
