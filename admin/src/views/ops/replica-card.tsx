/** Admins: the continuous replica's state, read-only, from GET /health (docs/replication.md). */
import { ops } from '../../ops-api.ts';
import { formatDate } from '../../format.ts';
import { t, formatNumber } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';

export function ReplicaCard() {
  const { data: health } = useLoad(() => ops.health(), []);
  const replica = health?.replica;
  // Nothing to show without a replica (or while the health answer is on its way).
  if (!replica) return null;
  const row = (label: string, value: string) => (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  const when = (iso: string | null | undefined) => (iso ? formatDate(iso) : t('health.notYet'));
  return (
    <section class="panel" aria-label={t('backups.replica')}>
      <h2>{t('backups.replica')}</h2>
      <dl class="facts">
        {row(t('backups.replicaMode'), replica.mode)}
        {row(
          t('backups.replicaCopies'),
          replica.uploadsOnly ? t('backups.replicaUploadsOnly') : t('backups.replicaDatabaseAndUploads'),
        )}
        {row(t('backups.replicaLag'), t('backups.replicaSeconds', { n: formatNumber(replica.lagMs / 1000) }))}
        {row(t('backups.replicaLastTransaction'), formatNumber(replica.lastTransaction))}
        {row(t('backups.replicaLastSnapshot'), when(replica.lastSnapshotAt))}
        {row(t('backups.replicaOldest'), when(replica.oldestRestorable))}
      </dl>
    </section>
  );
}
