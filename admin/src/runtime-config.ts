/** Where the API and the admin are mounted: injected into index.html by the server (src/http/admin-index.ts). */

export interface RuntimeConfig {
  apiPrefix: string;
  adminPrefix: string;
}

declare global {
  interface Window {
    __CMS__?: Partial<RuntimeConfig>;
  }
}

const trimSlash = (s: string) => (s.length > 1 ? s.replace(/\/+$/, '') : s === '/' ? '' : s);

const injected = typeof window === 'undefined' ? undefined : window.__CMS__;

export const runtime: RuntimeConfig = {
  apiPrefix: trimSlash(injected?.apiPrefix ?? '/api/cms'),
  adminPrefix: trimSlash(injected?.adminPrefix ?? '/admin'),
};
