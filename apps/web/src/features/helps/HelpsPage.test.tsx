import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser } from '../connections/testing/user';
import HelpsPage from './HelpsPage';

const userEvent = fastUser();

const helps = [
  { id: 1, title: 'Como abrir um atendimento', description: 'Passo a passo', video: 'dQw4w9WgXcQ' },
  { id: 2, title: 'Filas', description: '', video: 'abcdefghijk' },
];

describe('HelpsPage', () => {
  it('shows a card with its thumbnail per video; a click opens the video, Escape closes it', async () => {
    mockApi({ 'GET /helps/list': () => helps });
    renderWithProviders(<HelpsPage />, { path: '/helps' });
    expect(screen.getByTestId('helps-loading')).toBeTruthy();

    const card = await screen.findByTestId('help-card-1');
    expect(within(card).getByText('Como abrir um atendimento')).toBeTruthy();
    expect(within(card).getByText('Passo a passo')).toBeTruthy();
    expect(screen.getByTestId('help-thumbnail-2').getAttribute('src')).toBe(
      'https://i.ytimg.com/vi/abcdefghijk/hqdefault.jpg',
    );

    await userEvent.click(within(card).getByRole('button', { name: 'Assistir: Como abrir um atendimento' }));
    const modal = await screen.findByTestId('help-video-modal');
    const player = within(modal).getByTestId('help-video-player');
    expect(player.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0');
    expect(player.getAttribute('title')).toBe('Como abrir um atendimento');
    expect(player.getAttribute('referrerpolicy')).toBe('strict-origin');
    expect(within(modal).getByRole('heading', { name: /Como abrir um atendimento/ })).toBeTruthy();

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('help-video-player')).toBeNull());
  });

  it('opens a video from the keyboard (Enter) and closes it with the close button', async () => {
    mockApi({ 'GET /helps/list': () => helps });
    renderWithProviders(<HelpsPage />, { path: '/helps' });
    const button = within(await screen.findByTestId('help-card-2')).getByRole('button');
    button.focus();
    await userEvent.keyboard('{Enter}');
    const player = await screen.findByTestId('help-video-player');
    expect(player.getAttribute('src')).toContain('/embed/abcdefghijk');
    await userEvent.click(screen.getByTestId('help-video-close'));
    await waitFor(() => expect(screen.queryByTestId('help-video-player')).toBeNull());
  });

  it('says so when there is no video yet', async () => {
    mockApi({ 'GET /helps/list': () => [] });
    renderWithProviders(<HelpsPage />, { path: '/helps' });
    expect((await screen.findByTestId('helps-empty')).textContent).toContain('Nenhum vídeo de ajuda cadastrado ainda.');
  });
});
