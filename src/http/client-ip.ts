/** The peer address of a request, recorded by the server as the request arrives. */
const addresses = new WeakMap<Request, string>();

export function rememberClientIP(request: Request, address: string | undefined | null): void {
  if (address) addresses.set(request, address);
}

export function clientIP(request: Request): string | null {
  return addresses.get(request) ?? null;
}
