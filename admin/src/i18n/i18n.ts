/**
 * The admin's words in the reader's language (docs/admin.md, "Languages"). Every string comes from one
 * catalogue per language, keys grouped by view (`list.search`); English is in the first load, the others
 * are chunks of their own fetched once chosen. The language is the one picked on the account page
 * (`localStorage` `cms-language`), else the first of `navigator.languages` we have, else English. Dates
 * and numbers follow the browser's own tag for that language (`de-CH` formats Swiss-German).
 *
 * Each catalogue has two parts: the first paint's (`en.ts`: shell, dashboard, lists, sign-in) and the
 * pages' (`en-pages.ts`: edit form, field editors, media, operations, dialogs opened from lazy views),
 * fetched with the first lazily loaded page (`withPageMessages`), so the first load holds one small part.
 */
import en from './en.ts';

type PageKey = keyof typeof import('./en-pages.ts')['default'];
export type FirstKey = keyof typeof en;
export type MessageKey = FirstKey | PageKey;
/** The first paint's part of a catalogue. */
export type Catalogue = Record<FirstKey, string>;
/** The lazily loaded pages' part of a catalogue. */
export type PageCatalogue = Record<PageKey, string>;
/** A config label: one string, or one per language as in Payload (`{ en: 'Title', de: 'Titel' }`). */
export type LabelText = string | Record<string, string>;

/** Each language's own name, as its speakers write it (the account page's choice). */
export const LANGUAGES: Record<string, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' };

const LOADERS: Record<string, () => Promise<{ default: Catalogue }>> = {
  de: () => import('./de.ts'),
  fr: () => import('./fr.ts'),
  es: () => import('./es.ts'),
};

const PAGE_LOADERS: Record<string, () => Promise<{ default: PageCatalogue }>> = {
  en: () => import('./en-pages.ts'),
  de: () => import('./de-pages.ts'),
  fr: () => import('./fr-pages.ts'),
  es: () => import('./es-pages.ts'),
};

const STORE_KEY = 'cms-language';
let messages: Catalogue = en;
/** The pages' part for `pagesLanguage`, once a lazily loaded page asked for it. */
let pageMessages: Partial<PageCatalogue> = {};
let pagesLanguage: string | null = null;
let pagesWanted = false;
let current = 'en';
let intlTag = 'en';

/** The language now shown (`en`, `de`, …). */
export const language = () => current;
/** The BCP 47 tag for Intl: the browser's own tag when it speaks this language, else the language. */
export const intlLocale = () => intlTag;

/** `t('list.count', { n: 3 })`: the text for `key`, `{n}` replaced by the params. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text =
    (messages as Record<string, string>)[key] ??
    (pageMessages as Record<string, string>)[key] ??
    (en as Record<string, string>)[key] ??
    key;
  return params
    ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? formatParam(params[name]!) : m))
    : text;
}

const formatParam = (v: string | number) => (typeof v === 'number' ? formatNumber(v) : v);

/** A count's text by the language's plural rules: `tn('list.rows', n)` reads `list.rows.one` or `list.rows.other`. */
export function tn(key: string, n: number, params?: Record<string, string | number>): string {
  const form = new Intl.PluralRules(intlTag).select(n) === 'one' ? 'one' : 'other';
  return t(`${key}.${form}` as MessageKey, { n, ...params });
}

export const formatNumber = (n: number, options?: Intl.NumberFormatOptions) =>
  new Intl.NumberFormat(intlTag, options).format(n);

/** A label from the config in the reader's language: theirs, else English, else the first given. */
export function localizedLabel(label: LabelText | false | null | undefined): string | undefined {
  if (label === null || label === undefined || label === false) return undefined;
  if (typeof label === 'string') return label;
  return label[current] ?? label.en ?? Object.values(label)[0];
}

/** The language the reader prefers: their choice on the account page, else the browser's. */
export function preferredLanguage(): string {
  const saved = safeStorage()?.getItem(STORE_KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0]!;
    if (base in LANGUAGES) return base;
  }
  return 'en';
}

/** Loads `code`'s catalogue (once) and makes it current. The caller re-renders. */
export async function loadLanguage(code: string): Promise<void> {
  const lang = code in LANGUAGES ? code : 'en';
  const [first] = await Promise.all([
    lang === 'en' ? en : LOADERS[lang]!().then((m) => m.default),
    pagesWanted ? loadPages(lang) : null,
  ]);
  messages = first;
  current = lang;
  intlTag = (navigator.languages ?? []).find((tag) => tag.toLowerCase().split('-')[0] === lang) ?? lang;
  document.documentElement.lang = lang;
  dispatchEvent(new Event('cms:language'));
}

async function loadPages(lang: string): Promise<void> {
  if (pagesLanguage === lang) return;
  const part = (await PAGE_LOADERS[lang]!()).default;
  pageMessages = part;
  pagesLanguage = lang;
}

/** Loads the pages' part of the current language's catalogue (once per language; kept on a language change). */
export function loadPageMessages(): Promise<void> {
  pagesWanted = true;
  return loadPages(current);
}

/** `load` (a lazily loaded page's `import()`) that also has the pages' words ready before it resolves. */
export const withPageMessages =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    Promise.all([load(), loadPageMessages()]).then(([m]) => m);

/** Remembers the reader's choice (`null`: follow the browser again). */
export function saveLanguage(code: string | null): void {
  const store = safeStorage();
  if (!store) return;
  if (code) store.setItem(STORE_KEY, code);
  else store.removeItem(STORE_KEY);
}

function safeStorage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}
