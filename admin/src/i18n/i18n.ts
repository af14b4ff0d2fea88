/**
 * The admin's words in the reader's language (docs/admin.md, "Languages"). Every string comes from one
 * catalogue per language, keys grouped by view (`list.search`); English is in the first load, the others
 * are chunks of their own fetched once chosen. The language is the one picked on the account page
 * (`localStorage` `cms-language`), else the first of `navigator.languages` we have, else English. Dates
 * and numbers follow the browser's own tag for that language (`de-CH` formats Swiss-German).
 */
import en from './en.ts'

export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>
/** A config label: one string, or one per language as in Payload (`{ en: 'Title', de: 'Titel' }`). */
export type LabelText = string | Record<string, string>

/** Each language's own name, as its speakers write it (the account page's choice). */
export const LANGUAGES: Record<string, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' }

const LOADERS: Record<string, () => Promise<{ default: Catalogue }>> = {
  de: () => import('./de.ts'),
  fr: () => import('./fr.ts'),
  es: () => import('./es.ts'),
}

const STORE_KEY = 'cms-language'
let messages: Catalogue = en
let current = 'en'
let intlTag = 'en'

/** The language now shown (`en`, `de`, …). */
export const language = () => current
/** The BCP 47 tag for Intl: the browser's own tag when it speaks this language, else the language. */
export const intlLocale = () => intlTag

/** `t('list.count', { n: 3 })`: the text for `key`, `{n}` replaced by the params. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const text = messages[key] ?? en[key] ?? key
  return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? formatParam(params[name]!) : m)) : text
}

const formatParam = (v: string | number) => (typeof v === 'number' ? formatNumber(v) : v)

/** A count's text by the language's plural rules: `tn('list.rows', n)` reads `list.rows.one` or `list.rows.other`. */
export function tn(key: string, n: number, params?: Record<string, string | number>): string {
  const form = new Intl.PluralRules(intlTag).select(n) === 'one' ? 'one' : 'other'
  return t(`${key}.${form}` as MessageKey, { n, ...params })
}

export const formatNumber = (n: number, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(intlTag, options).format(n)

/** A label from the config in the reader's language: theirs, else English, else the first given. */
export function localizedLabel(label: LabelText | null | undefined): string | undefined {
  if (label === null || label === undefined) return undefined
  if (typeof label === 'string') return label
  return label[current] ?? label.en ?? Object.values(label)[0]
}

/** The language the reader prefers: their choice on the account page, else the browser's. */
export function preferredLanguage(): string {
  const saved = safeStorage()?.getItem(STORE_KEY)
  if (saved && saved in LANGUAGES) return saved
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0]!
    if (base in LANGUAGES) return base
  }
  return 'en'
}

/** Loads `code`'s catalogue (once) and makes it current. The caller re-renders. */
export async function loadLanguage(code: string): Promise<void> {
  const lang = code in LANGUAGES ? code : 'en'
  messages = lang === 'en' ? en : (await LOADERS[lang]!()).default
  current = lang
  intlTag = (navigator.languages ?? []).find((tag) => tag.toLowerCase().split('-')[0] === lang) ?? lang
  document.documentElement.lang = lang
  dispatchEvent(new Event('cms:language'))
}

/** Remembers the reader's choice (`null`: follow the browser again). */
export function saveLanguage(code: string | null): void {
  const store = safeStorage()
  if (!store) return
  if (code) store.setItem(STORE_KEY, code)
  else store.removeItem(STORE_KEY)
}

function safeStorage(): Storage | null {
  try {
    return localStorage
  } catch {
    return null
  }
}
