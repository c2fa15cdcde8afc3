import SmartToyIcon from '@mui/icons-material/SmartToy';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyNamed } from '../../components/lazyNamed';

// Few users open it: the panel, its steps and its forms load on the first click.
const AssistantPanel = lazyNamed(() => import('./AssistantPanel'), 'AssistantPanel');

/**
 * The chat-assistant widget of every signed-in user (spec part 1 §1–9, DOMAIN §19): a launcher in
 * the top bar that opens the floating panel. The state is asked for only once it opens.
 */
export function AssistantWidget() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* In the top bar, not floating over the page: a floating button would cover the chat's send button. */}
      <Tooltip title={t('assistant.open')}>
        <IconButton
          color="inherit"
          aria-label={t('assistant.open')}
          aria-expanded={open}
          onClick={() => setOpen((was) => !was)}
          data-testid="assistant-launcher"
        >
          <SmartToyIcon />
        </IconButton>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <AssistantPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
