import { msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';

/** "1 model" / "12 models", with the count in the language's digits. */
export function modelCount(n: number): string {
  return n === 1 ? msg('1 model') : msg(str`${formatNumber(n)} models`);
}
