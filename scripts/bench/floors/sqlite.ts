/**
 * Start-up floor: Elysia with one route that counts the users in the project's SQLite file (as the CMS's
 * first request does), plus `node:crypto`, which every CMS start loads.
 */
import { Database } from 'bun:sqlite';
import { createHash } from 'node:crypto';
import { Elysia } from 'elysia';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const db = new Database('data/cms.db');
db.exec('PRAGMA busy_timeout = 5000');
const users = db.query<{ n: number }, []>('SELECT count(*) AS "n" FROM "users"');
const digest = createHash('sha256').update(String(port)).digest('hex');
const app = new Elysia().get('/api/cms/users/init', () => ({ initialized: users.get()!.n > 0, digest }));
Bun.serve({ port, hostname: '127.0.0.1', fetch: (request) => app.handle(request) });
