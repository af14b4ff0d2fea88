/** Media documents are created by uploading a file: the media collection's create page is an uploader. */
import type { CollectionConfig } from '../../api.ts';
import { Uploader } from '../../media/uploader.tsx';
import { navigate } from '../../router.tsx';
import { Breadcrumb } from './breadcrumb.tsx';
import { t } from '../../i18n/i18n.ts';

export function MediaCreate(props: { c: CollectionConfig }) {
  return (
    <section>
      <Breadcrumb c={props.c} />
      <h1 tabIndex={-1}>{t('edit.uploadFile')}</h1>
      <Uploader multiple={false} onUploaded={(d) => void navigate(`/collections/media/${d.id}`, { replace: true })} />
    </section>
  );
}
