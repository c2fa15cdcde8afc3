import type { IntegrationType } from '@balcao/shared';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** Each type's brand colour and a white glyph drawn on it (24×24), no external image. */
const LOGOS: Record<IntegrationType, { color: string; glyph: ReactNode }> = {
  // A chat bubble with typing dots.
  typebot: {
    color: '#0042DA',
    glyph: (
      <>
        <path d="M6 7.5A2.5 2.5 0 0 1 8.5 5h7A2.5 2.5 0 0 1 18 7.5v5a2.5 2.5 0 0 1-2.5 2.5H11l-3.2 2.8V15H8.5A2.5 2.5 0 0 1 6 12.5z" />
        <circle cx="9.5" cy="10" r="1" fill="#0042DA" />
        <circle cx="12" cy="10" r="1" fill="#0042DA" />
        <circle cx="14.5" cy="10" r="1" fill="#0042DA" />
      </>
    ),
  },
  // A workflow: one node branching to two.
  n8n: {
    color: '#EA4B71',
    glyph: (
      <>
        <path d="M8 12h3.5M13.5 12l2.5-3.5M13.5 12l2.5 3.5" stroke="#fff" strokeWidth="1.6" fill="none" />
        <circle cx="6.3" cy="12" r="1.9" />
        <circle cx="12.5" cy="12" r="1.5" />
        <circle cx="17.4" cy="7.6" r="1.9" />
        <circle cx="17.4" cy="16.4" r="1.9" />
      </>
    ),
  },
  // Curly braces around an arrow: a JSON POST.
  webhook: {
    color: '#475569',
    glyph: (
      <>
        <path
          d="M9 6.5c-1.4 0-2 .6-2 1.8v1.6c0 .9-.5 1.6-1.5 2.1 1 .5 1.5 1.2 1.5 2.1v1.6c0 1.2.6 1.8 2 1.8M15 6.5c1.4 0 2 .6 2 1.8v1.6c0 .9.5 1.6 1.5 2.1-1 .5-1.5 1.2-1.5 2.1v1.6c0 1.2-.6 1.8-2 1.8"
          stroke="#fff"
          strokeWidth="1.5"
          fill="none"
          strokeLinecap="round"
        />
        <path
          d="M10 12h3.2M12 10.2l1.8 1.8-1.8 1.8"
          stroke="#fff"
          strokeWidth="1.5"
          fill="none"
          strokeLinecap="round"
        />
      </>
    ),
  },
  // A hexagon with a speech tail.
  dialogflow: {
    color: '#FF9800',
    glyph: (
      <>
        <path d="M12 4.8l6 3.45v6.9l-3 1.72V20l-3-1.73-6-3.45v-6.9z" />
        <circle cx="10" cy="11.6" r="1" fill="#FF9800" />
        <circle cx="14" cy="11.6" r="1" fill="#FF9800" />
      </>
    ),
  },
};

/** The small logo of an integration's type (list rows, pickers). */
export function IntegrationLogo({ type, size = 28, title }: { type: IntegrationType; size?: number; title?: string }) {
  const { color, glyph } = LOGOS[type];
  return (
    <Box
      component="svg"
      viewBox="0 0 24 24"
      role="img"
      aria-label={title ?? type}
      data-testid={`integration-logo-${type}`}
      sx={{ width: size, height: size, flexShrink: 0, display: 'block' }}
    >
      <rect width="24" height="24" rx="6" fill={color} />
      <g fill="#fff">{glyph}</g>
    </Box>
  );
}
