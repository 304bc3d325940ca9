// The page's language, as its <html lang> says (app.js sets it before the panels mount): the
// figures a panel draws take it as their lang, so that their own words follow the page.
import { langOf } from '../figures/interact/messages.js';

/** -> 'en' | 'zh-CN' */
export function pageLang() {
  return langOf(document.documentElement);
}
