/** Start-up floor: Elysia with the one route the CMS's first request hits, served by `Bun.serve`. */
import { Elysia } from 'elysia';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const app = new Elysia().get('/api/cms/users/init', () => ({ initialized: true }));
Bun.serve({ port, hostname: '127.0.0.1', fetch: (request) => app.handle(request) });
