/**
 * The small tools at the foot of the sidebar: the light/dark/system switch and the keyboard
 * shortcut help (also opened by pressing `?` anywhere outside a text field).
 */
import { useEffect, useState } from 'preact/hooks';
import { readThemeChoice, setThemeChoice, type ThemeChoice } from '../theme.ts';
import { Modal } from '../ui/modal.tsx';
import { t } from '../i18n/i18n.ts';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = isMac ? '⌘' : 'Ctrl';

/** What the admin answers to, grouped as people look for it. */
export const shortcuts = (): { group: string; keys: string[]; does: string }[] => [
  { group: t('tools.anywhere'), keys: ['?'], does: t('tools.showList') },
  { group: t('tools.anywhere'), keys: [mod, 'K'], does: t('tools.search') },
  { group: t('tools.anywhere'), keys: ['Esc'], does: t('tools.close') },
  { group: t('tools.editing'), keys: [mod, 'S'], does: t('tools.save') },
  { group: t('tools.editing'), keys: ['Enter'], does: t('tools.submit') },
  { group: t('tools.pickers'), keys: ['↑', '↓'], does: t('tools.move') },
  { group: t('tools.pickers'), keys: ['Enter'], does: t('tools.choose') },
  { group: t('tools.tabsRows'), keys: ['←', '→'], does: t('tools.tabs') },
];

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export function ShellTools() {
  const [theme, setTheme] = useState<ThemeChoice>(readThemeChoice);
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.key === '?' &&
        !e.ctrlKey &&
        !e.metaKey &&
        !e.altKey &&
        !typing(e.target) &&
        !document.querySelector('dialog[open]')
      ) {
        e.preventDefault();
        setHelp(true);
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="shell-tools">
      <label class="theme-switch">
        <span class="visually-hidden">{t('tools.theme')}</span>
        <select
          value={theme}
          onChange={(e) => {
            const v = e.currentTarget.value as ThemeChoice;
            setThemeChoice(v);
            setTheme(v);
          }}
        >
          <option value="system">{t('tools.system')}</option>
          <option value="light">{t('tools.light')}</option>
          <option value="dark">{t('tools.dark')}</option>
        </select>
      </label>
      <button
        type="button"
        class="icon-button"
        aria-label={t('tools.shortcuts')}
        title={t('tools.shortcutsHint')}
        onClick={() => setHelp(true)}
      >
        ?
      </button>
      {help && <ShortcutHelp onClose={() => setHelp(false)} />}
    </div>
  );
}

function ShortcutHelp(props: { onClose: () => void }) {
  const list = shortcuts();
  const groups = [...new Set(list.map((s) => s.group))];
  return (
    <Modal title={t('tools.shortcuts')} onClose={props.onClose}>
      {groups.map((g) => (
        <section key={g} class="shortcut-group">
          <h3>{g}</h3>
          <dl class="shortcuts">
            {list
              .filter((s) => s.group === g)
              .map((s) => (
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
  );
}
