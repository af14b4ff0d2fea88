/** The turning wheel with a word beside it, while something loads. */
import { t } from '../i18n/i18n.ts';

export function Spinner(props: { label?: string }) {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {props.label ?? t('ui.loading')}
    </div>
  );
}
