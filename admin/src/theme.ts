/**
 * Light, dark or the system's choice, kept per browser in localStorage (`cms-theme`). The page's
 * `<html data-theme>` holds the resolved value; index.html sets it before the stylesheet paints, so
 * a dark system never flashes light. "System" follows the operating system as it changes.
 */
export type ThemeChoice = 'light' | 'dark' | 'system';

const KEY = 'cms-theme';
const darkQuery = () => matchMedia('(prefers-color-scheme: dark)');

export function readThemeChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

function apply(choice: ThemeChoice): void {
  document.documentElement.dataset.theme = choice === 'system' ? (darkQuery().matches ? 'dark' : 'light') : choice;
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage blocked: the choice lasts for this page.
  }
  apply(choice);
}

/** Applies the stored choice and follows the system while the choice is "system". */
export function startTheme(): void {
  apply(readThemeChoice());
  darkQuery().addEventListener('change', () => {
    if (readThemeChoice() === 'system') apply('system');
  });
}
