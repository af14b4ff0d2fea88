/**
 * A route group as plain data: paths, methods and handlers, which the app's router finds
 * (src/http/app.ts, src/http/router.ts). Groups made as Elysia plugins cost a registration per route at
 * each level they are used, at every start.
 */
export type RouteHandler = (context: { request: Request; params: Record<string, string>; route?: string }) => unknown;
export type RouteEntry = { method: 'ALL' | 'POST'; path: string; handler: RouteHandler };

export class RouteList {
  readonly entries: RouteEntry[] = [];

  /** Every method: the handler answers the ones it does not serve with a 405 (src/http/handle.ts). */
  all(path: string, handler: RouteHandler): this {
    this.entries.push({ method: 'ALL', path, handler });
    return this;
  }

  /** POST only: other methods go on to the routes registered for the same path. */
  post(path: string, handler: RouteHandler): this {
    this.entries.push({ method: 'POST', path, handler });
    return this;
  }

  use(group: RouteList): this {
    this.entries.push(...group.entries);
    return this;
  }
}
