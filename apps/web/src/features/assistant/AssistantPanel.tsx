import { MOBILE_BREAKPOINT_PX } from '@balcao/shared';
import CloseIcon from '@mui/icons-material/Close';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import KeyIcon from '@mui/icons-material/Key';
import LogoutIcon from '@mui/icons-material/Logout';
import MinimizeIcon from '@mui/icons-material/Minimize';
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import SmartToyIcon from '@mui/icons-material/SmartToy';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type PointerEvent as ReactPointerEvent, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthStep, ChatStep, TokenStep } from './AssistantSteps';
import { assistantApi, assistantKey, patchAssistant, useAssistantState } from './assistantApi';

const WIDTH = 360;
const HEIGHT = 520;
const MARGIN = 8;

interface Position {
  left: number;
  top: number;
}

/** Keeps the panel's header on screen. */
function clamp(p: Position, width: number): Position {
  return {
    left: Math.min(Math.max(p.left, MARGIN - width + 80), window.innerWidth - 80),
    top: Math.min(Math.max(p.top, MARGIN), window.innerHeight - 48),
  };
}

/** Dragging by the header: the panel follows the pointer from where it was grabbed. */
function useDrag(enabled: boolean) {
  const [position, setPosition] = useState<Position | null>(null);
  const grab = useRef<{ dx: number; dy: number; width: number } | null>(null);

  const onPointerDown = useCallback(
    (event: ReactPointerEvent<HTMLElement>) => {
      if (!enabled || event.button !== 0 || (event.target as HTMLElement).closest('button')) return;
      const panel = event.currentTarget.parentElement?.getBoundingClientRect();
      if (!panel) return;
      grab.current = { dx: event.clientX - panel.left, dy: event.clientY - panel.top, width: panel.width };
      event.currentTarget.setPointerCapture?.(event.pointerId);
    },
    [enabled],
  );
  const onPointerMove = useCallback((event: ReactPointerEvent<HTMLElement>) => {
    const g = grab.current;
    if (!g) return;
    setPosition(clamp({ left: event.clientX - g.dx, top: event.clientY - g.dy }, g.width));
  }, []);
  const onPointerUp = useCallback(() => {
    grab.current = null;
  }, []);

  return { position: enabled ? position : null, handlers: { onPointerDown, onPointerMove, onPointerUp } };
}

/**
 * The assistant's floating panel (spec part 1 §1–9, DOMAIN §19), in one of three states (auth, token,
 * chat); it can be dragged, minimised and closed, with the day's counter remaining/limit. On a phone
 * it spans the bottom of the screen.
 */
export function AssistantPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phone = useMediaQuery(`(max-width:${MOBILE_BREAKPOINT_PX - 0.05}px)`, { noSsr: true });
  const [minimised, setMinimised] = useState(false);
  const [changingToken, setChangingToken] = useState(false);
  const { position, handlers } = useDrag(!phone);
  const query = useAssistantState();
  const state = query.data;
  const signOut = useMutation({
    mutationFn: assistantApi.signOut,
    onSuccess: (next) => {
      queryClient.setQueryData(assistantKey, next);
      setChangingToken(false);
    },
  });

  const view = !state
    ? query.isError
      ? 'error'
      : 'loading'
    : !state.signedIn
      ? 'auth'
      : !state.hasToken || changingToken
        ? 'token'
        : 'chat';

  const placement = phone ? { left: MARGIN, right: MARGIN, bottom: MARGIN } : { right: 16, bottom: 16 };

  return (
    <Paper
      elevation={8}
      role="dialog"
      aria-label={t('assistant.title')}
      data-testid="assistant-widget"
      data-state={view}
      data-minimised={minimised || undefined}
      // Where it was dragged to (inline: it changes on every pointer move).
      style={position ? { left: position.left, top: position.top, right: 'auto', bottom: 'auto' } : undefined}
      sx={{
        position: 'fixed',
        ...placement,
        zIndex: (theme) => theme.zIndex.speedDial,
        width: phone ? 'auto' : WIDTH,
        maxWidth: `calc(100vw - ${2 * MARGIN}px)`,
        height: minimised ? 'auto' : phone ? `min(75dvh, ${HEIGHT}px)` : `min(${HEIGHT}px, calc(100dvh - 32px))`,
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
      }}
    >
      <Box
        {...handlers}
        data-testid="assistant-header"
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          pl: 1,
          pr: 0.5,
          py: 0.5,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          cursor: phone ? 'default' : 'move',
          touchAction: 'none',
          userSelect: 'none',
        }}
      >
        {!phone && <DragIndicatorIcon fontSize="small" aria-label={t('assistant.drag')} />}
        <SmartToyIcon fontSize="small" />
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {t('assistant.title')}
        </Typography>
        {state && (
          <Tooltip title={t('assistant.counter', state.usage)}>
            <Chip
              size="small"
              label={`${state.usage.remaining}/${state.usage.limit}`}
              data-testid="assistant-counter"
              sx={{ color: 'inherit', borderColor: 'currentColor' }}
              variant="outlined"
            />
          </Tooltip>
        )}
        {view === 'chat' && (
          <Tooltip title={t('assistant.changeToken')}>
            <IconButton
              size="small"
              color="inherit"
              aria-label={t('assistant.changeToken')}
              onClick={() => {
                setMinimised(false);
                setChangingToken(true);
              }}
              data-testid="assistant-change-token"
            >
              <KeyIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {state?.signedIn && (
          <Tooltip title={t('assistant.logout')}>
            <IconButton
              size="small"
              color="inherit"
              aria-label={t('assistant.logout')}
              onClick={() => signOut.mutate()}
              disabled={signOut.isPending}
              data-testid="assistant-logout"
            >
              <LogoutIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <Tooltip title={t(minimised ? 'assistant.restore' : 'assistant.minimize')}>
          <IconButton
            size="small"
            color="inherit"
            aria-label={t(minimised ? 'assistant.restore' : 'assistant.minimize')}
            onClick={() => setMinimised((m) => !m)}
            data-testid="assistant-minimise"
          >
            {minimised ? <OpenInFullIcon fontSize="small" /> : <MinimizeIcon fontSize="small" />}
          </IconButton>
        </Tooltip>
        <Tooltip title={t('assistant.close')}>
          <IconButton
            size="small"
            color="inherit"
            aria-label={t('assistant.close')}
            onClick={onClose}
            data-testid="assistant-close"
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      {!minimised && (
        <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', overflowY: 'auto' }}>
          {view === 'loading' && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }} aria-label={t('assistant.loading')}>
              <CircularProgress size={28} />
            </Box>
          )}
          {view === 'error' && (
            <Box sx={{ p: 2, textAlign: 'center' }}>
              <Typography variant="body2" sx={{ mb: 1 }}>
                {t('assistant.loadFailed')}
              </Typography>
              <Button onClick={() => void query.refetch()}>{t('assistant.retry')}</Button>
            </Box>
          )}
          {view === 'auth' && <AuthStep />}
          {view === 'token' && state && (
            <TokenStep
              onDone={() => {
                patchAssistant(queryClient, (s) => ({ ...s, hasToken: true }));
                setChangingToken(false);
              }}
              onCancel={state.hasToken ? () => setChangingToken(false) : undefined}
            />
          )}
          {view === 'chat' && state && <ChatStep state={state} onNeedToken={() => setChangingToken(true)} />}
        </Box>
      )}
    </Paper>
  );
}
