/** The way into a collection's trash (docs/trash.md), on its list, for collections that have one. */
import type { CollectionConfig } from '../api.ts';
import { Link } from '../router.tsx';
import { Icon } from '../ui.tsx';
import { t } from '../i18n/i18n.ts';

export function TrashLink(props: { collection: CollectionConfig }) {
  if (!props.collection.trash) return null;
  return (
    <Link to={`/collections/${props.collection.slug}/trash`} class="button">
      <Icon name="trash" /> {t('trash.link')}
    </Link>
  );
}
