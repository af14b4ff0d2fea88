/**
 * A TCP proxy on 127.0.0.1 in front of another server (PostgreSQL in the fault tests): `cut()` closes every
 * connection and refuses new ones, as a database that went away would; `restore()` listens again on the
 * same port. `delayMs` holds back what the server sends by that long (in order), as a slow link would.
 */
import type { Socket, TCPSocketListener } from 'bun';

export function tcpProxy(target: { host: string; port: number }, options: { delayMs?: number } = {}) {
  const open = new Set<Socket<{ peer?: Socket<unknown>; pending: Uint8Array[] }>>();
  let listener: TCPSocketListener<{ peer?: Socket<unknown>; pending: Uint8Array[] }> | null = null;
  let port = 0;
  const listen = () => {
    listener = Bun.listen<{ peer?: Socket<unknown>; pending: Uint8Array[] }>({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(client) {
          client.data = { pending: [] };
          open.add(client);
          void Bun.connect({
            hostname: target.host,
            port: target.port,
            socket: {
              open(server) {
                client.data.peer = server;
                for (const chunk of client.data.pending) server.write(chunk);
              },
              data(_server, chunk) {
                if (!options.delayMs) client.write(chunk);
                else {
                  const copy = new Uint8Array(chunk);
                  setTimeout(() => client.write(copy), options.delayMs);
                }
              },
              close() {
                client.end();
              },
              error() {
                client.end();
              },
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          if (client.data.peer) client.data.peer.write(chunk);
          else client.data.pending.push(new Uint8Array(chunk));
        },
        close(client) {
          open.delete(client);
          client.data.peer?.end();
        },
      },
    });
    port = listener.port;
  };
  listen();
  return {
    get port() {
      return port;
    },
    cut() {
      listener?.stop(true);
      listener = null;
      for (const client of open) {
        client.data.peer?.terminate();
        client.terminate();
      }
      open.clear();
    },
    restore: listen,
  };
}
