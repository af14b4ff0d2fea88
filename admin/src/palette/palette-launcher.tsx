/**
 * What the first load carries of the command palette: the Ctrl+K / Cmd+K shortcut and a sidebar button.
 * The palette itself (palette/command-palette.tsx) is a separate chunk fetched on first use.
 */
import { t, withPageMessages } from '../i18n/i18n.ts';
import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../app-context.ts';
import { message } from '../format.ts';
import { Icon } from '../ui.tsx';
import { toast } from '../ui/toasts.tsx';

type Palette = (props: { onClose: () => void }) => preact.JSX.Element;
let loaded: Palette | null = null;

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function PaletteLauncher() {
  const { config } = useApp();
  const [open, setOpen] = useState(false);
  const [Palette, setPalette] = useState<Palette | null>(() => loaded);
  const searchable = config.collections.some((c) => c.search);

  const show = () => {
    setOpen(true);
    if (loaded) return;
    withPageMessages(() => import('./command-palette.tsx'))()
      .then((m) => setPalette(() => (loaded = m.CommandPalette)))
      .catch((e) => (toast(message(e), 'error'), setOpen(false)));
  };

  useEffect(() => {
    if (!searchable) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== 'k' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      e.preventDefault();
      show();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [searchable]);

  if (!searchable) return null;
  return (
    <>
      <button
        type="button"
        class="nav-item palette-button"
        onClick={show}
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
      >
        <Icon name="search" />
        <span class="truncate">{t('palette.open')}</span>
        <kbd aria-hidden="true">{isMac ? '⌘K' : 'Ctrl K'}</kbd>
      </button>
      {open && Palette && <Palette onClose={() => setOpen(false)} />}
    </>
  );
}
