/** The admin's icons: inline SVG paths on a 16 px grid drawn in currentColor. The other widgets are in ui/. */

const PATHS: Record<string, string> = {
  plus: 'M8 3v10M3 8h10',
  x: 'M4 4l8 8M12 4l-8 8',
  check: 'M3 8.5l3.2 3L13 4.5',
  up: 'M8 13V3M4 7l4-4 4 4',
  down: 'M8 3v10M4 9l4 4 4-4',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5',
  search: 'M7 12A5 5 0 1 0 7 2a5 5 0 0 0 0 10zM10.7 10.7L14 14',
  upload: 'M8 10.5V2.5M4.8 5.5L8 2.3l3.2 3.2M2.5 10v3.5h11V10',
  image: 'M2.5 3h11v10h-11zM2.5 11l3.5-3.5 3 3 2-2 2.5 2.5M10.5 6.2h.01',
  file: 'M4 1.5h5l3.5 3.5v9.5H4zM9 1.5V5h3.5',
  folder: 'M1.5 3.5h4.5l1.5 1.5h7v8h-13z',
  chevron: 'M6 4l4 4-4 4',
  sort: 'M5 6l3-3 3 3M5 10l3 3 3-3',
  asc: 'M5 9.5l3-3 3 3',
  desc: 'M5 6.5l3 3 3-3',
  logout: 'M6 2.5H3v11h3M10.5 11l3-3-3-3M13.5 8H6',
  grid: 'M2.5 2.5h4.5v4.5H2.5zM9 2.5h4.5v4.5H9zM2.5 9h4.5v4.5H2.5zM9 9h4.5v4.5H9z',
  doc: 'M4 1.5h8v13H4zM6 5h4M6 8h4M6 11h2.5',
  globe:
    'M8 14.5A6.5 6.5 0 1 0 8 1.5a6.5 6.5 0 0 0 0 13zM1.5 8h13M8 1.5c2 2 2.6 4.3 2.6 6.5S10 12.5 8 14.5C6 12.5 5.4 10.2 5.4 8S6 3.5 8 1.5',
  users:
    'M6 7.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM1.5 13.5c0-2.5 2-4 4.5-4s4.5 1.5 4.5 4M11 2.7a2.5 2.5 0 0 1 0 4.6M12.5 9.8c1.2.5 2 1.8 2 3.7',
  key: 'M10 9.5a3.5 3.5 0 1 0-3.3-2.4L1.5 12.3v2.2h2.2v-1.5h1.5v-1.5h1.5l1-1a3.5 3.5 0 0 0 2.3 0zM11 5h.01',
  clock: 'M8 14.5A6.5 6.5 0 1 0 8 1.5a6.5 6.5 0 0 0 0 13zM8 4.5V8l2.5 1.5',
  copy: 'M5.5 5.5h8v8h-8zM10.5 5.5v-3h-8v8h3',
  drag: 'M6 3.5h.01M10 3.5h.01M6 8h.01M10 8h.01M6 12.5h.01M10 12.5h.01',
  menu: 'M2.5 4h11M2.5 8h11M2.5 12h11',
  dots: 'M3.5 8h.01M8 8h.01M12.5 8h.01',
  filter: 'M2 3h12L9.5 8.5V13l-3 1.5v-6z',
  columns: 'M2.5 2.5h11v11h-11zM6.2 2.5v11M9.8 2.5v11',
  eye: 'M1.5 8S4 3.5 8 3.5 14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8zM8 10a2 2 0 1 0 0-4 2 2 0 0 0 0 4z',
  external: 'M9.5 2.5h4v4M13.5 2.5L7.5 8.5M11.5 9.5v4h-9v-9h4',
  settings:
    'M8 10a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
};

/** One of the icons above by `name`, or a path of the same 16 px grid given as `d` (the editor's own icons). */
export function Icon(props: { name: keyof typeof PATHS | string; d?: string; size?: number }) {
  const s = props.size ?? 16;
  return (
    <svg
      class="icon"
      width={s}
      height={s}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      stroke-width="1.5"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d={props.d ?? PATHS[props.name] ?? ''} />
    </svg>
  );
}
