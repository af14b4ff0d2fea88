/**
 * Bun.serve closes a connection that stays silent for its idle timeout (10 s), which is right for every
 * request but one that works that long before it answers (`POST /backups`). The server registers how to
 * lift the timeout for each request; such a route calls `keepOpen`. Requests made without Bun.serve
 * (`app.handle` in tests) have nothing registered and nothing to lift.
 */
const lifters = new WeakMap<Request, () => void>();

export function rememberTimeoutLifter(request: Request, lift: () => void): void {
  lifters.set(request, lift);
}

export function keepOpen(request: Request): void {
  lifters.get(request)?.();
}
