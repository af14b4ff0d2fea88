/**
 * The server of scripts/bench-realtime.ts, in its own process so its memory is its own. Prints
 * `READY <json>` once its users exist, then `COMMIT <ms>` (wall clock, sub-millisecond) when each change
 * reaches the change log, the moment the realtime hub is woken; reads `gc` lines on stdin and answers
 * `RSS <bytes>` after a full collection.
 */
import { startTestServer } from '../../test/harness.ts';

const users = Number(process.argv[2] ?? 50);
const streams = Number(process.argv[3] ?? 1000);
const teams = Number(process.argv[4] ?? 10);
const t = await startTestServer({
  // Room for every stream of the run, however they are spread over the editors.
  realtime: { maxConnections: streams + 100, maxConnectionsPerUser: streams },
  collections: [
    {
      slug: 'posts',
      // A rule per subscriber: editors read their own team's posts, admins everything.
      access: {
        read: ({ user }) =>
          user?.role === 'admin' ? true : user ? { team: { equals: Number(user.id) % teams } } : false,
        create: () => true,
      },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'team', type: 'number' },
      ],
    },
  ],
});
const admin = await t.user('admin');
const editors: { id: number; token: string }[] = [];
for (let i = 0; i < users; i++) {
  const session = await t.user('editor', `e${i}@example.com`, 'a long password 1');
  editors.push({ id: Number(session.user.id), token: session.token });
}
const now = () => performance.timeOrigin + performance.now();
// Watching before the hub does: this listener runs first, as the change is noticed.
t.cms.store.watchChanges((name) => {
  if (name === '_cms_events') console.log(`COMMIT ${now()}`);
});
console.log(`READY ${JSON.stringify({ api: t.api, admin: admin.token, editors, pid: process.pid })}`);
process.on('SIGTERM', () => void t.stop().then(() => process.exit(0)));
for await (const line of console) {
  if (line.trim() !== 'gc') continue;
  Bun.gc(true);
  console.log(`RSS ${process.memoryUsage.rss()}`);
}
