/** The server of scripts/bench-realtime.ts, in its own process so its memory is its own: prints `READY <json>`. */
import { startTestServer } from '../../test/harness.ts';

const users = Number(process.argv[2] ?? 50);
const t = await startTestServer({
  realtime: { maxConnections: 5000 },
  collections: [
    {
      slug: 'posts',
      // A rule per subscriber: editors read their own team's posts, admins everything.
      access: {
        read: ({ user }) => (user?.role === 'admin' ? true : user ? { team: { equals: Number(user.id) % 10 } } : false),
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
const tokens: string[] = [];
for (let i = 0; i < users; i++) tokens.push((await t.user('editor', `e${i}@example.com`, 'a long password 1')).token);
console.log(`READY ${JSON.stringify({ api: t.api, admin: admin.token, tokens, pid: process.pid })}`);
process.on('SIGTERM', () => void t.stop().then(() => process.exit(0)));
