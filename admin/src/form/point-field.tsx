/** `point`: a longitude and a latitude, stored as `[lng, lat]`; empty until both are typed. */
import { useEffect, useState } from 'preact/hooks';
import { useControlProps } from './fields.tsx';
import type { FieldProps } from './form-context.ts';
import { t } from '../i18n/i18n.ts';

type Point = [number, number] | null;

const asText = (n: number | undefined) => (n === undefined || n === null ? '' : String(n));

export function PointField(props: FieldProps<Point>) {
  const attrs = useControlProps(props);
  const [text, setText] = useState<[string, string]>([asText(props.value?.[0]), asText(props.value?.[1])]);

  // A value from outside (loaded, restored) replaces what is typed unless it is what the inputs mean.
  useEffect(() => {
    const [lng, lat] = text.map((t) => (t.trim() === '' ? null : Number(t)));
    if (props.value?.[0] !== lng || props.value?.[1] !== lat)
      setText([asText(props.value?.[0]), asText(props.value?.[1])]);
  }, [JSON.stringify(props.value ?? null)]);

  const update = (i: 0 | 1, t: string) => {
    const next: [string, string] = i === 0 ? [t, text[1]] : [text[0], t];
    setText(next);
    const [lng, lat] = next.map((x) => (x.trim() === '' ? NaN : Number(x)));
    if (next[0].trim() === '' && next[1].trim() === '') props.onChange(null);
    else if (Number.isFinite(lng) && Number.isFinite(lat)) props.onChange([lng!, lat!]);
  };

  const input = (i: 0 | 1, name: string, min: number, max: number) => (
    <label class="point-part">
      <span class="small">{name}</span>
      <input
        {...attrs}
        id={i === 0 ? attrs.id : `${attrs.id}-lat`}
        name={`${attrs.name}.${i}`}
        type="number"
        step="any"
        min={min}
        max={max}
        class="narrow"
        value={text[i]}
        onInput={(e) => update(i, e.currentTarget.value)}
      />
    </label>
  );

  return (
    <div class="point" role="group" aria-label={t('fields.coordinates')}>
      {input(0, t('fields.longitude'), -180, 180)}
      {input(1, t('fields.latitude'), -90, 90)}
    </div>
  );
}
