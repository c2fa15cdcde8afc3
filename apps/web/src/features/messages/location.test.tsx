import { locationBody } from '@balcao/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { message } from '../tickets/testing';
import { plainText } from './content';
import { MessageItem } from './MessageItem';

const LINK = 'https://maps.google.com/maps?q=-23.55%2C-46.63&z=17';

function show(body: string) {
  renderWithProviders(
    <MessageItem
      message={message({ id: 5, fromMe: false, mediaType: 'locationMessage', body })}
      showSender={false}
      readOnly={false}
      highlighted={false}
      onReply={vi.fn()}
      onDelete={vi.fn()}
      onRetry={vi.fn()}
      onQuotedClick={vi.fn()}
    />,
  );
  return screen.getByTestId('location');
}

describe('a received location', () => {
  it('is a card with a map icon, the description and a link opening the map in a new tab', () => {
    const card = show(locationBody({ latitude: -23.55, longitude: -46.63, name: 'Praça da Sé', address: 'São Paulo' }));
    expect(within(card).getByTestId('location-icon')).toBeTruthy();
    expect(within(card).getByText('Praça da Sé, São Paulo')).toBeTruthy();
    const link = within(card).getByRole('link', { name: 'Abrir no mapa' });
    expect(link.getAttribute('href')).toBe(LINK);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('shows the image when the body has one, and the word "location" without a description', () => {
    const card = show(`data:image/jpeg;base64,/9j/|${LINK}|`);
    expect(card.querySelector('img')?.getAttribute('src')).toBe('data:image/jpeg;base64,/9j/');
    expect(within(card).queryByTestId('location-icon')).toBeNull();
    expect(within(card).getByText('Localização')).toBeTruthy();
  });

  it('never links to anything but a web address', () => {
    const card = show('|javascript:alert(1)|Casa');
    expect(within(card).getByText('Casa')).toBeTruthy();
    expect(within(card).queryByRole('link')).toBeNull();
  });

  it('reads in previews and notifications as its description, or a pin and "Localização"', () => {
    expect(plainText(`|${LINK}|Praça da Sé`)).toBe('Praça da Sé');
    expect(plainText(`|${LINK}|`)).toBe('📍 Localização');
    expect(plainText(`data:image/jpeg;base64,/9j/|${LINK}`)).toBe('📍 Localização');
    expect(plainText('*Oi* | tudo bem?')).toBe('Oi | tudo bem?');
  });
});
