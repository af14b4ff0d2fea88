/**
 * A QR code of a text as inline SVG, encoded by `uqr` (docs/dependencies.md). Loaded with `import()` only
 * when the two-factor setup shows one, so the admin's first load does not carry the encoder.
 */
import { encode } from 'uqr';

/** One `M x y h1v1h-1z` square per dark module: crisp at any size, and one element instead of hundreds. */
function modulesPath(data: boolean[][]): string {
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return d;
}

export default function QrCode(props: { text: string; label: string }) {
  // Medium error correction and a 4-module quiet zone (the standard's), as phone cameras expect.
  const qr = encode(props.text, { ecc: 'M', border: 4 });
  return (
    <svg
      class="qr-code"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shape-rendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={modulesPath(qr.data)} fill="#000" />
    </svg>
  );
}
