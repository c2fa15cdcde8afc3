import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { MessageItem } from '../messages/MessageItem';
import { message } from '../tickets/testing';

/** DOMAIN §16: a voice note the assistant transcribed shows its transcript to the agents. */
describe('the transcript of a voice note', () => {
  it('shows under the audio, and not on a message without one', () => {
    mockApi({});
    const item = (overrides: Parameters<typeof message>[0]) => (
      <MessageItem
        message={message({ fromMe: false, mediaType: 'audio', mediaUrl: '/media/1/a.ogg', body: '', ...overrides })}
        showSender={false}
        readOnly={false}
        highlighted={false}
        onReply={vi.fn()}
        onDelete={vi.fn()}
        onRetry={vi.fn()}
        onQuotedClick={vi.fn()}
      />
    );
    renderWithProviders(
      <>
        {item({ id: 3, transcript: 'Vocês entregam no sábado?' })}
        {item({ id: 4, transcript: null })}
      </>,
    );
    expect(screen.getByTestId('message-transcript-3').textContent).toBe('Transcrição: Vocês entregam no sábado?');
    expect(screen.queryByTestId('message-transcript-4')).toBeNull();
  });
});
