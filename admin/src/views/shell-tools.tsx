/**
 * The small tools at the foot of the sidebar: the light/dark/system switch and the keyboard
 * shortcut help (also opened by pressing `?` anywhere outside a text field).
 */
import { useEffect, useState } from 'preact/hooks'
import { readThemeChoice, setThemeChoice, type ThemeChoice } from '../theme.ts'
import { Modal } from '../ui.tsx'

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
const mod = isMac ? '⌘' : 'Ctrl'

/** What the admin answers to, grouped as people look for it. */
export const SHORTCUTS: { group: string; keys: string[]; does: string }[] = [
  { group: 'Anywhere', keys: ['?'], does: 'Show this list of shortcuts' },
  { group: 'Anywhere', keys: [mod, 'K'], does: 'Search everything (sites with a search collection)' },
  { group: 'Anywhere', keys: ['Esc'], does: 'Close a dialog or menu' },
  { group: 'Editing', keys: [mod, 'S'], does: 'Save (a draft where drafts exist)' },
  { group: 'Editing', keys: ['Enter'], does: 'Submit the form from a text field' },
  { group: 'Pickers', keys: ['↑', '↓'], does: 'Move through the matching documents' },
  { group: 'Pickers', keys: ['Enter'], does: 'Choose the highlighted document' },
  { group: 'Tabs and rows', keys: ['←', '→'], does: 'Switch tabs; Alt + ↑/↓ moves a block or row' },
]

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))

export function ShellTools() {
  const [theme, setTheme] = useState<ThemeChoice>(readThemeChoice)
  const [help, setHelp] = useState(false)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target) && !document.querySelector('dialog[open]')) {
        e.preventDefault()
        setHelp(true)
      }
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])
  return (
    <div class="shell-tools">
      <label class="theme-switch">
        <span class="visually-hidden">Theme</span>
        <select
          value={theme}
          onChange={(e) => {
            const v = e.currentTarget.value as ThemeChoice
            setThemeChoice(v)
            setTheme(v)
          }}
        >
          <option value="system">System theme</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <button type="button" class="icon-button" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={() => setHelp(true)}>
        ?
      </button>
      {help && <ShortcutHelp onClose={() => setHelp(false)} />}
    </div>
  )
}

function ShortcutHelp(props: { onClose: () => void }) {
  const groups = [...new Set(SHORTCUTS.map((s) => s.group))]
  return (
    <Modal title="Keyboard shortcuts" onClose={props.onClose}>
      {groups.map((g) => (
        <section key={g} class="shortcut-group">
          <h3>{g}</h3>
          <dl class="shortcuts">
            {SHORTCUTS.filter((s) => s.group === g).map((s) => (
              <div key={s.does}>
                <dt>
                  {s.keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </dt>
                <dd>{s.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Modal>
  )
}
