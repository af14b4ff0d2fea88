/** Admins: back up now (with a progress bar from GET /backups `running`), the list, downloads (docs/operations.md). */
import { useEffect, useState } from 'preact/hooks';
import { ops, type BackupList } from '../../ops-api.ts';
import { formatBytes, formatDate, message } from '../../format.ts';
import { toast } from '../../ui/toasts.tsx';
import { t } from '../../i18n/i18n.ts';
import { OpsTable } from './ops-table.tsx';
import { ReplicaCard } from './replica-card.tsx';

/** POST /backups answers only when the archive is written; meanwhile the list's `running` says how far it is. */
const POLL_MS = 400;

export default function BackupsView() {
  const [list, setList] = useState<BackupList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    ops
      .backups()
      .then(setList)
      .catch((e) => setError(message(e)));
  useEffect(() => void load(), []);

  // Also follows a backup started elsewhere (the schedule, another tab) until it ends.
  const running = list?.running ?? null;
  useEffect(() => {
    if (!busy && !running) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, Boolean(running)]);

  const backUp = async () => {
    setBusy(true);
    setError(null);
    try {
      await ops.backUpNow();
      toast(t('backups.written'));
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
      void load();
    }
  };

  return (
    <section>
      <h1 tabIndex={-1}>{t('backups.title')}</h1>
      <div class="toolbar">
        <button type="button" class="primary" onClick={() => void backUp()} disabled={busy || Boolean(running)}>
          {busy || running ? t('backups.running') : t('backups.now')}
        </button>
      </div>
      {running && (
        <div class="backup-progress">
          <label for="backup-progress">
            {t('backups.progress', {
              name: running.name,
              phase: running.phase,
              done: running.done,
              total: running.total,
            })}
          </label>
          <progress id="backup-progress" max={Math.max(running.total, 1)} value={running.done} />
        </div>
      )}
      <OpsTable
        list={list}
        error={error}
        empty={t('backups.none')}
        headers={[t('backups.file'), t('backups.writtenAt'), t('backups.size')]}
        rowKey={(b) => b.name}
        cells={(b) => (
          <>
            <td>
              <a href={ops.backupURL(b.name)} download={b.name}>
                {b.name}
              </a>
            </td>
            <td>{formatDate(b.createdAt)}</td>
            <td>{formatBytes(b.size)}</td>
          </>
        )}
      />
      <ReplicaCard />
    </section>
  );
}
