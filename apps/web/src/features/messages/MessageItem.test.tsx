import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { message } from '../tickets/testing';
import { MessageItem } from './MessageItem';

function show(overrides: Parameters<typeof message>[0], onRetry = vi.fn()) {
  renderWithProviders(
    <MessageItem
      message={message({ id: 9, fromMe: true, ...overrides })}
      showSender={false}
      readOnly={false}
      highlighted={false}
      onReply={vi.fn()}
      onDelete={vi.fn()}
      onRetry={onRetry}
      onQuotedClick={vi.fn()}
    />,
  );
  return onRetry;
}

describe('a message that failed to send', () => {
  it('shows the error mark with its reason and a "try again" action', async () => {
    const onRetry = show({ sendStatus: 'failed', sendError: 'ERR_WAPP_NOT_INITIALIZED', ack: 0 });
    expect(screen.getByTestId('ack-9').dataset.ack).toBe('failed');
    await userEvent.hover(screen.getByTestId('ack-9'));
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'Falha no envio: Esta conexão não foi inicializada. Verifique a página de conexões.',
    );
    await userEvent.click(screen.getByTestId('message-retry-9'));
    expect(onRetry).toHaveBeenCalledWith(expect.objectContaining({ id: 9 }));
  });

  it('offers no "try again" for a message that was sent', () => {
    show({ sendStatus: 'sent', ack: 1 });
    expect(screen.queryByTestId('message-retry-9')).toBeNull();
  });

  it('offers no "try again" once deleted', () => {
    show({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG', isDeleted: true });
    expect(screen.queryByTestId('message-retry-9')).toBeNull();
  });
});
