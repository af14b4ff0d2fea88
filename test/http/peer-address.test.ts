/**
 * The peer's address is asked of the connection only when something needs it (src/http/request-handler.ts):
 * a kept answer to a POSTed GraphQL query made in the turn that received it never asks it, while a request
 * that goes on to a route asks it as the route starts. Over a real socket, a GraphQL login whose client closes the connection as soon as the
 * request is sent still has its address in the audit log.
 */
import { describe, expect, test } from 'bun:test';
import net from 'node:net';
import { createRequestHandler } from '../../src/http/request-handler.ts';
import { listAuditEntries } from '../../src/audit/list-entries.ts';
import { createContext } from '../../src/operation-context.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { DEFAULT_TEST_ENGINE } from '../harness.ts';
import { serveOverSocket } from '../support/socket-server.ts';

const config: UserConfig = {
  collections: [{ slug: 'notes', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
};

describe('the peer address', () => {
  const served = serveOverSocket(config, {
    prefix: 'cms-peer-',
    seed: (cms) =>
      cms.store.run('INSERT INTO "notes" ("title", "createdAt", "updatedAt") VALUES (?, ?, ?)', ['one', 1, 1]),
  });

  test('a kept POSTed GraphQL query never asks for it; a mutation does', async () => {
    let asked = 0;
    const connection = {
      requestIP: () => (asked++, { address: '203.0.113.9', family: 'IPv4' as const, port: 40000 }),
      timeout: () => {},
    };
    const handle = createRequestHandler(served.cms, { logFormat: 'off', idleTimeout: 10 });
    const graphql = (query: string) =>
      handle(
        new Request('http://127.0.0.1/api/cms/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        }),
        connection,
      );
    const query = '{ Notes { docs { title } } }';
    expect(await (await graphql(query)).json()).toEqual({ data: { Notes: { docs: [{ title: 'one' }] } } });
    asked = 0;
    const kept = await graphql(query);
    expect(await kept.json()).toEqual({ data: { Notes: { docs: [{ title: 'one' }] } } });
    // On PostgreSQL the kept answer waits on the database's socket: the turn that received the request ends
    // first, and the address is taken then, while the connection is surely open.
    expect(asked).toBe(DEFAULT_TEST_ENGINE === 'sqlite' ? 0 : 1);
    asked = 0;
    const login = await graphql('mutation { loginUser(email: "nobody@example.com", password: "wrong") { token } }');
    expect((await login.json()).errors).toBeArray();
    expect(asked).toBe(1);
  });

  test('a GraphQL login whose client closes at once is audited with its address', async () => {
    const body = JSON.stringify({
      query: 'mutation { loginUser(email: "closer@example.com", password: "wrong") { token } }',
    });
    const entries = async () =>
      (
        await listAuditEntries(createContext(served.cms, { overrideAccess: true }), {
          where: { action: { equals: 'login_failed' } },
          sort: '-id',
          limit: 10,
        })
      ).docs as Record<string, unknown>[];
    const before = (await entries()).length;
    await new Promise<void>((done) => {
      const socket = net.connect(served.server.port, '127.0.0.1', () =>
        socket.write(
          `POST /api/cms/graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          () => socket.destroy(),
        ),
      );
      socket.on('close', () => done());
      socket.on('error', () => done());
    });
    for (let i = 0; i < 100 && (await entries()).length === before; i++) await Bun.sleep(20);
    const [newest] = await entries();
    expect(newest).toMatchObject({ via: 'graphql', ip: '127.0.0.1' });
  });
});
