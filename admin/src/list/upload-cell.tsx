/** A list cell of an upload field: a small picture of each image (populated at depth 1), else its label. */
import type { Doc, Field } from '../api.ts';
import { cellText } from '../format.ts';
import { thumbnailURL } from '../upload.ts';

export function UploadCell(props: { field: Field | undefined; value: unknown }) {
  const docs = (Array.isArray(props.value) ? props.value : [props.value]).filter(
    (x): x is Doc => typeof x === 'object' && x !== null,
  );
  const pictures = docs.map((d) => ({ d, url: thumbnailURL(d) })).filter((p) => p.url);
  if (pictures.length === 0) return <>{cellText(props.field, props.value)}</>;
  return (
    <span class="list-thumbs">
      {pictures.map(({ d, url }) => (
        <img
          key={String(d.id)}
          class="list-thumb"
          src={url!}
          alt={typeof d.alt === 'string' && d.alt ? d.alt : String(d.filename ?? '')}
          loading="lazy"
          width={40}
          height={40}
        />
      ))}
    </span>
  );
}
