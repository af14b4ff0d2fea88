/** The version history of a document or global with drafts: newest first, restorable. */
import { useEffect, useState } from 'preact/hooks'
import { ApiError, versions, type Doc, type ListResult, type Version, type VersionOwner } from '../api.ts'
import { formatDate, message } from '../format.ts'
import { confirmDialog, Icon, toast } from '../ui.tsx'

export function VersionsPanel(props: { owner: VersionOwner; reloadKey: unknown; onRestored: (doc: Doc) => void; dirty: boolean }) {
  const [page, setPage] = useState(1)
  const [data, setData] = useState<ListResult<Version> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [unavailable, setUnavailable] = useState(false)
  const ownerKey = JSON.stringify(props.owner)

  useEffect(() => {
    let live = true
    versions
      .list(props.owner, page)
      .then((r) => live && (setData(r), setError(null)))
      .catch((e) => {
        if (!live) return
        if (e instanceof ApiError && (e.status === 404 || e.status === 405)) setUnavailable(true)
        else setError(message(e))
      })
    return () => {
      live = false
    }
  }, [ownerKey, page, props.reloadKey])

  const restore = async (v: Version) => {
    const ok = await confirmDialog({
      title: 'Restore this version?',
      message: `The content saved ${formatDate(v.createdAt)} ${v.status === 'published' ? 'becomes the published document' : 'becomes the pending draft'}.${props.dirty ? ' Your unsaved changes will be lost.' : ''}`,
      confirm: 'Restore',
    })
    if (!ok) return
    try {
      const r = await versions.restore(props.owner, v.id)
      toast('Version restored')
      props.onRestored(r.doc)
    } catch (e) {
      toast(message(e), 'error')
    }
  }

  return (
    <section class="panel" aria-labelledby="versions-title">
      <h2 id="versions-title" class="panel-title">
        <Icon name="clock" /> Versions
      </h2>
      {unavailable ? (
        <p class="muted small">Version history is not available on this server yet.</p>
      ) : error ? (
        <p class="field-error">{error}</p>
      ) : !data ? (
        <p class="muted small">Loading…</p>
      ) : data.docs.length === 0 ? (
        <p class="muted small">No versions yet. Each save keeps one.</p>
      ) : (
        <>
          <ol class="versions">
            {data.docs.map((v) => (
              <li key={String(v.id)}>
                <div>
                  <div class="small">{formatDate(v.updatedAt ?? v.createdAt)}</div>
                  <span class={`badge ${v.status === 'published' ? 'ok' : 'draft'}`}>{v.status ?? 'draft'}</span>
                  {v.latest && <span class="badge">current</span>}
                </div>
                {!v.latest && (
                  <button type="button" class="small" onClick={() => void restore(v)}>
                    Restore
                  </button>
                )}
              </li>
            ))}
          </ol>
          {data.totalPages > 1 && (
            <div class="pager small">
              <button type="button" disabled={!data.hasPrevPage} onClick={() => setPage(page - 1)}>
                Newer
              </button>
              <button type="button" disabled={!data.hasNextPage} onClick={() => setPage(page + 1)}>
                Older
              </button>
            </div>
          )}
        </>
      )}
    </section>
  )
}
