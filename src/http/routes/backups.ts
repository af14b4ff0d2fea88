/**
 * Backups over HTTP, admins only (docs/operations.md): `POST /backups` writes one now and answers 201
 * `{ doc, message }` when it is done; `GET /backups` lists them newest first, with the one being written
 * (`running`: name, phase, done, total) for the admin's progress bar; `GET /backups/:name` downloads one.
 * The backup modules (tar, gzip, the S3 target) load on the first backup request, not at start.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { notFound } from '../../errors.ts';
import { authorizeBackups } from '../../backups/authorize-backups.ts';
import { methods, type Route } from '../handle.ts';
import { bodyReceived } from '../long-requests.ts';

export function backupRoutes(cms: CMS) {
  const create: Route = async ({ ctx, request }) => {
    authorizeBackups(ctx);
    bodyReceived(request); // it reads no body; a large backup answers after minutes
    const { createBackup } = await import('../../backups/create-backup.ts');
    const { manifest: _, where: __, ...doc } = await createBackup(cms);
    return { status: 201, body: { doc, message: `Backup ${doc.name} written.` } };
  };
  const list: Route = async ({ ctx }) => {
    authorizeBackups(ctx);
    const [{ backupTarget }, { runningBackup }] = await Promise.all([
      import('../../backups/backup-target.ts'),
      import('../../backups/create-backup.ts'),
    ]);
    const docs = await backupTarget(cms.config).list();
    return {
      body: { docs, totalDocs: docs.length, running: runningBackup(cms) },
      headers: { 'cache-control': 'no-store' },
    };
  };
  const download: Route = async ({ ctx, params }) => {
    authorizeBackups(ctx);
    const { backupTarget, BACKUP_NAME } = await import('../../backups/backup-target.ts');
    const stored = BACKUP_NAME.test(params.name) ? await backupTarget(cms.config).open(params.name) : null;
    if (!stored) throw notFound('No such backup.');
    const body = stored.body instanceof Blob ? stored.body.stream() : stored.body;
    return new Response(body, {
      headers: {
        'content-type': 'application/gzip',
        'content-length': String(stored.size),
        'content-disposition': `attachment; filename="${params.name}"`,
        'cache-control': 'no-store',
      },
    });
  };
  return new RouteList()
    .all('/backups', methods(cms, { GET: list, POST: create }))
    .all('/backups/:name', methods(cms, { GET: download }));
}
