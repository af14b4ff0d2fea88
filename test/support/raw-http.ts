/** A request sent byte for byte, for paths that fetch() would normalise (`..`, `%2e%2e`). */
import net from 'node:net';

export function rawGet(port: number, rawPath: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${rawPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
    socket.on('error', reject);
  });
}

/** A JSON request with a Host header of the test's choice (fetch() always sends the URL's own). */
export function rawJSON(
  port: number,
  method: string,
  path: string,
  host: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const payload = Buffer.from(JSON.stringify(body));
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n${extra}Connection: close\r\n\r\n`,
      );
      socket.write(payload);
    });
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
    socket.on('error', reject);
  });
}

/**
 * A request with a body of `size` bytes of `x`, written as fast as the socket takes it or in `chunk`s
 * `delayMs` apart, whatever the server does meanwhile. Answers the status of the answer that arrived, or
 * how the connection failed without one (`ECONNRESET`, `EPIPE`): what a client actually sees.
 */
export function sendLargeBody(
  port: number,
  options: { path: string; size: number; headers?: Record<string, string>; chunk?: number; delayMs?: number },
): Promise<number | string> {
  const chunk = Buffer.alloc(options.chunk ?? 64 * 1024, 0x78);
  const extra = Object.entries(options.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return new Promise((resolve) => {
    let data = '';
    let settled = false;
    const settle = (how: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data)?.[1];
      resolve(status ? Number(status) : how);
    };
    const socket = net.connect(port, '127.0.0.1', async () => {
      socket.write(
        `POST ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${options.size}\r\n${extra}\r\n`,
      );
      for (let sent = 0; sent < options.size && !socket.destroyed; ) {
        const piece = chunk.subarray(0, Math.min(chunk.length, options.size - sent));
        sent += piece.length;
        if (!socket.write(piece)) await new Promise((r) => socket.once('drain', r).once('close', r));
        if (options.delayMs) await Bun.sleep(options.delayMs);
      }
    });
    socket.setMaxListeners(0);
    socket.on('data', (d) => {
      data += d.toString('latin1');
      if (data.includes('\r\n\r\n')) settle('answered');
    });
    socket.on('error', (error) => settle((error as NodeJS.ErrnoException).code ?? error.message));
    socket.on('close', () => settle('closed without an answer'));
    const timer = setTimeout(() => settle('no answer in 30 s'), 30_000);
  });
}
