/**
 * After every answer: count it for `/metrics` and write one log line (docs/operations.md). The route label is
 * the pattern the router matched (`/api/cms/:collection/:id`), never the concrete path, so the number of
 * series stays bounded; the log line keeps the path but drops query values (preview tokens, search words).
 */
import type { CMS } from '../cms.ts';
import { countRequest } from '../metrics/registry.ts';
import { rememberedPerURL } from './recent-urls.ts';

export type LogFormat = 'text' | 'json' | 'off';

const routes = new WeakMap<Request, string>();

/** Called by the route wrapper with the pattern the router matched. */
export function rememberRoute(request: Request, route: string): void {
  routes.set(request, route);
}

export const routeOf = (request: Request): string => routes.get(request) ?? 'unmatched';

/** Where the path of a request's absolute URL starts (the first `/` after the host); -1 when it has none. */
const pathStart = (url: string) => url.indexOf('/', url.indexOf('//') + 2);

/** The path and query of a request's absolute URL: `/api/cms/posts?limit=5`. */
export function pathAndQuery(url: string): string {
  const start = pathStart(url);
  return start === -1 ? '/' : url.slice(start);
}

/** The path of a request's absolute URL, without its query: `/api/cms/posts`. */
export function pathOf(url: string): string {
  const start = pathStart(url);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/** The path with each query value removed: `/api/cms/posts?where[title][like]&limit`. */
export const pathWithoutQueryValues = rememberedPerURL(function pathWithoutQueryValues(url: string): string {
  const path = pathAndQuery(url);
  const q = path.indexOf('?');
  if (q === -1) return path;
  const keys = path
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : pair.slice(0, eq);
    });
  return `${path.slice(0, q)}${keys.length ? `?${keys.join('&')}` : ''}`;
});

export function observeRequest(cms: CMS, request: Request, status: number, ms: number, format: LogFormat): void {
  const path = pathWithoutQueryValues(request.url);
  const admin = cms.config.routes.admin;
  const route = routes.get(request) ?? (path === admin || path.startsWith(`${admin}/`) ? `${admin}/*` : 'unmatched');
  countRequest(cms, request.method, route, status, ms / 1000);
  if (format === 'off') return;
  const rounded = Math.round(ms * 10) / 10;
  logLater(
    cms,
    format === 'json'
      ? JSON.stringify({
          time: new Date(cms.clock.now()).toISOString(),
          method: request.method,
          path,
          status,
          ms: rounded,
        })
      : `${request.method} ${path} ${status} ${rounded}ms`,
  );
}

/**
 * The lines of 10 ms are written together (or sooner, 1,000 of them): under load Bun.serve answers about
 * one request per turn of the event loop, and a write per turn was a tenth of a kept read's CPU
 * (docs/benchmarks.md). Nothing is lost on the way out: the server's stop writes what waits before
 * closing, and so does the process's exit (both synchronous); a process killed outright loses at most the
 * last 10 ms of lines.
 */
const WRITE_EVERY_MS = 10;
const WRITE_AT_LINES = 1000;
const waiting = new Map<CMS, string[]>();

function logLater(cms: CMS, line: string): void {
  const lines = waiting.get(cms);
  if (lines) {
    lines.push(line);
    if (lines.length >= WRITE_AT_LINES) flushRequestLog(cms);
    return;
  }
  waiting.set(cms, [line]);
  setTimeout(() => flushRequestLog(cms), WRITE_EVERY_MS).unref();
}

export function flushRequestLog(cms: CMS): void {
  const lines = waiting.get(cms);
  if (!lines) return;
  waiting.delete(cms);
  cms.log.info(lines.join('\n'));
}

process.on('exit', () => {
  for (const cms of [...waiting.keys()]) flushRequestLog(cms);
});
