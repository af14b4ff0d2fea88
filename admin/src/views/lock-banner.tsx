/** Who else is editing this document, and the way to take over from them (after a confirmation). */
import type { DocumentLock } from '../form/document-lock.ts'
import { message } from '../format.ts'
import { confirmDialog, toast } from '../ui.tsx'

const nameOf = (u: { name: string | null; email: string } | null) => (u ? u.name || u.email : 'Someone else')

export function LockBanner(props: { lock: DocumentLock; onTakenOver: () => void }) {
  const { state } = props.lock
  if (state.status === 'other') {
    const who = nameOf(state.holder)
    const takeOver = async () => {
      const ok = await confirmDialog({
        title: 'Take over editing?',
        message: `${who} is editing this document. If you take over, their unsaved changes cannot be saved here (they keep them in their browser).`,
        confirm: 'Take over',
        danger: true,
      })
      if (!ok) return
      try {
        await props.lock.takeOver()
        props.onTakenOver()
        toast('You are editing now')
      } catch (e) {
        toast(message(e), 'error')
      }
    }
    return (
      <div class="alert warn lock-banner" role="status">
        <p>
          <strong>{who} is editing</strong> this document. It is read-only for you until they leave or you take over.
        </p>
        <div class="alert-actions">
          <button type="button" class="primary" onClick={() => void takeOver()}>
            Take over
          </button>
        </div>
      </div>
    )
  }
  if (state.status === 'lost')
    return (
      <div class="alert error lock-banner" role="alert">
        <p>
          <strong>{nameOf(state.holder)} took over</strong> this document. Your changes are kept in this browser; copy what you need before leaving.
        </p>
      </div>
    )
  return null
}
