const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})([0-9a-f]{2})?$/i;

/** WCAG relative luminance of a #rgb / #rrggbb colour (an alpha byte is ignored), or null if it is not one. */
export function relativeLuminance(color: string): number | null {
  const match = HEX.exec(color.trim());
  if (!match) return null;
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Black or white, whichever contrasts more with a background colour, so a chip of any user-chosen
 * colour stays readable. Undefined for a colour it cannot read (the theme's text colour then applies).
 */
export function readableTextOn(background: string | null | undefined): '#000000' | '#FFFFFF' | undefined {
  const luminance = background ? relativeLuminance(background) : null;
  if (luminance === null) return undefined;
  // Contrast ratios (L1 + 0.05) / (L2 + 0.05) against white (L = 1) and black (L = 0).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#FFFFFF' : '#000000';
}
