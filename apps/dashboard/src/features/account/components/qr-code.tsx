import { create } from 'qrcode';
import { useMemo } from 'react';

/** Modules of white border around the code (the QR specification's quiet zone). */
const quietZone = 4;

/**
 * A QR code drawn as one SVG path from the `qrcode` library's module matrix (no HTML injected, no canvas):
 * crisp at any size, black on white whatever the theme, so every phone camera reads it.
 */
export function QrCode({ value, label, size = 208 }: { value: string; label: string; size?: number }) {
  const { width, path } = useMemo(() => {
    const { modules } = create(value, { errorCorrectionLevel: 'M' });
    let d = '';
    for (let y = 0; y < modules.size; y += 1) {
      for (let x = 0; x < modules.size; x += 1) {
        if (modules.get(y, x)) d += `M${x + quietZone} ${y + quietZone}h1v1h-1z`;
      }
    }
    return { width: modules.size + 2 * quietZone, path: d };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${width}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="qr-code"
    >
      <rect width={width} height={width} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
