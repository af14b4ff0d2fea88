/** The way back from a document to its collection's list. */
import type { CollectionConfig } from '../../api.ts';
import { pluralLabel } from '../../format.ts';
import { Link } from '../../router.tsx';
import { Icon } from '../../ui.tsx';
import { t } from '../../i18n/i18n.ts';

export function Breadcrumb(props: { c: CollectionConfig }) {
  return (
    <nav class="breadcrumb" aria-label={t('edit.breadcrumb')}>
      <Link to={`/collections/${props.c.slug}`}>{pluralLabel(props.c)}</Link>
      <Icon name="chevron" size={12} />
    </nav>
  );
}
