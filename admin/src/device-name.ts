/**
 * A session's user-agent string as people say it: "Firefox on macOS", "Chrome on Android", "curl".
 * A few ordered patterns, no dependency: browsers name their ancestors in the string (Chrome says
 * "Safari", Edge says "Chrome"), so the most specific token is tested first.
 */
import { t } from './i18n/i18n.ts';

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bLinux\b/, 'Linux'],
];

/** Command-line clients and libraries say who they are in their first token (`curl/8.5.0`). */
const TOOLS = /^(curl|Wget|HTTPie|PostmanRuntime|node-fetch|undici|axios|python-requests|Go-http-client|Bun|okhttp)\b/i;

export function deviceName(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return t('device.unknown');
  const tool = TOOLS.exec(ua);
  if (tool) return tool[1]!;
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return t('device.on', { browser, system });
  // Unknown clients keep their own words.
  return browser ?? system ?? ua;
}
