/**
 * The admin's index.html: the built template with the admin prefix and `window.__CMS__` filled in at serve
 * time. The runtime config is process-wide (one admin per process): set it at server start.
 */
import { readFileSync } from 'node:fs';
import { filesGeneration } from './admin-files.ts';
import { etagOf, type Loaded } from './static-file.ts';

export interface AdminRuntimeConfig {
  /** e.g. `/api/cms` */
  apiPrefix: string;
  /** e.g. `/admin` */
  adminPrefix: string;
  /** Anything else the admin should know at start (serverURL, version, …); must be JSON. */
  [key: string]: unknown;
}

const DEFAULT_CONFIG: AdminRuntimeConfig = { apiPrefix: '/api/cms', adminPrefix: '/admin' };
const BASE_PLACEHOLDER = /__CMS_ADMIN_BASE__/g;
const CONFIG_PLACEHOLDER = '<!--cms:runtime-config-->';

let runtimeConfig: AdminRuntimeConfig = { ...DEFAULT_CONFIG };
let index: { page: Loaded; generation: number } | null = null;

function trimSlash(p: string): string {
  const t = p.replace(/\/+$/, '');
  return t === '' ? '' : t.startsWith('/') ? t : `/${t}`;
}

/**
 * Tells the admin where the API is. Call at server start (and again if the
 * prefixes change). Extra keys are passed to the admin as they are.
 */
export function setAdminRuntimeConfig(config: Partial<AdminRuntimeConfig>): void {
  runtimeConfig = {
    ...DEFAULT_CONFIG,
    ...config,
    apiPrefix: trimSlash(config.apiPrefix ?? DEFAULT_CONFIG.apiPrefix),
    adminPrefix: trimSlash(config.adminPrefix ?? DEFAULT_CONFIG.adminPrefix),
  };
  index = null;
}

function htmlAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function scriptJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** index.html from the template `file`, made once per runtime config and per listing of the files. */
export function loadIndex(file: string): Loaded {
  if (!index || index.generation !== filesGeneration()) {
    const template = readFileSync(file, 'utf8');
    const html = template
      .replace(BASE_PLACEHOLDER, htmlAttr(runtimeConfig.adminPrefix))
      .replace(CONFIG_PLACEHOLDER, `<script>window.__CMS__=${scriptJson(runtimeConfig)}</script>`);
    const body = new TextEncoder().encode(html);
    index = { page: { body, etag: etagOf(body) }, generation: filesGeneration() };
  }
  return index.page;
}
