/**
 * The app's routes (the API's and the admin's) found by one radix tree, memoirist: the router Elysia itself
 * is built on, here under one Elysia route for every path. Registered with Elysia one by one, each route
 * cost its registration (validators, hooks, a handler compiled on its first request) at every start, and
 * the router a function holding every static path, compiled before the first answer; none of it serves a
 * route that only reads `request` and `params`. Matching is Elysia's: a static segment before a parameter
 * (with backtracking), parameters decoded by the same decoder, a trailing slash ignored, a route of the
 * request's method before one of every method (HEAD served by GET's).
 */
import { Memoirist } from 'memoirist';
import decodeURIComponent from 'fast-decode-uri-component';
import type { RouteHandler } from './routes/route-list.ts';
import { notFoundResponse } from './errors.ts';
import { pathOf } from './observe-request.ts';

export type RouterEntry = { method: 'ALL' | 'GET' | 'POST'; path: string; handler: RouteHandler };
type Found = { handler: RouteHandler; route: string };

/** A handler for every request: the matching route's answer, else a 404. */
export function createRouter(entries: readonly RouterEntry[]): (request: Request) => unknown {
  const router = new Memoirist<Found>({ onParam: decodeURIComponent });
  // Without a history: memoirist looks each new path up in it (every route against every other, at every
  // start), and the app's paths are distinct.
  for (const { method, path, handler } of entries)
    router.add(method, path, { handler, route: path }, { ignoreHistory: true });
  const find = (method: string, path: string) => {
    const own = method === 'HEAD' ? 'GET' : method;
    return (own === 'GET' || own === 'POST' ? router.find(own, path) : null) ?? router.find('ALL', path);
  };
  return (request) => {
    const path = pathOf(request.url);
    const found =
      find(request.method, path) ??
      (path.length > 1 && path.endsWith('/') ? find(request.method, path.slice(0, -1)) : null);
    if (!found) return notFoundResponse();
    return found.store.handler({ request, params: found.params as Record<string, string>, route: found.store.route });
  };
}
