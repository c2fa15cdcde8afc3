import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { plan, sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { ConnectionModal } from '../connections/ConnectionModal';
import { whatsapp } from '../connections/testing/fixtures';
import { fastUser } from '../connections/testing/user';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();

describe('the API token in the connection dialog', () => {
  it('is not offered while adding a connection', () => {
    mockApi({ 'GET /queue': () => [] });
    renderWithProviders(<ConnectionModal open whatsapp={null} onClose={vi.fn()} />);
    expect(screen.queryByTestId('connection-token')).toBeNull();
  });

  it('generates a token and shows it once', async () => {
    const api = mockApi({ 'GET /queue': () => [], 'POST /whatsapp/5/token': () => ({ token: 'tok-123' }) });
    renderWithProviders(<ConnectionModal open whatsapp={whatsapp({ id: 5 })} onClose={vi.fn()} />);
    const section = screen.getByTestId('connection-token');
    expect(within(section).getByTestId('connection-token-state').textContent).toContain(
      'Nenhum token gerado para esta conexão.',
    );
    await userEvent.click(within(section).getByRole('button', { name: 'Gerar token' }));
    expect(((await screen.findByTestId('connection-token-value')) as HTMLInputElement).value).toBe('tok-123');
    expect(screen.getByTestId('connection-token-once').textContent).toContain('não será exibido novamente');
    expect(screen.getByTestId('connection-token-state').textContent).toContain('tem um token ativo');
    expect(api.calls('POST /whatsapp/5/token')).toHaveLength(1);
    // The dialog's own form was not submitted.
    expect(api.calls('PUT /whatsapp/5')).toHaveLength(0);
  });

  it('asks before replacing a token, and does nothing when cancelled', async () => {
    const api = mockApi({ 'GET /queue': () => [], 'POST /whatsapp/5/token': () => ({ token: 'tok-novo' }) });
    renderWithProviders(<ConnectionModal open whatsapp={whatsapp({ id: 5, hasToken: true })} onClose={vi.fn()} />);
    expect(screen.getByTestId('connection-token-state').textContent).toContain('tem um token ativo');
    await userEvent.click(screen.getByRole('button', { name: 'Gerar novo token' }));
    expect((await screen.findByTestId('confirmation-modal')).textContent).toContain('deixará de funcionar');
    await userEvent.click(screen.getByTestId('confirmation-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirmation-modal')).toBeNull());
    expect(api.calls('POST /whatsapp/5/token')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Gerar novo token' }));
    await userEvent.click(await screen.findByTestId('confirmation-confirm'));
    expect(((await screen.findByTestId('connection-token-value')) as HTMLInputElement).value).toBe('tok-novo');
    expect(api.calls('POST /whatsapp/5/token')).toHaveLength(1);
  });

  it('is absent when the plan has no external API', () => {
    mockApi({ 'GET /queue': () => [] });
    const auth = authValue({ user: sessionUser({}, { plan: plan({ useExternalApi: false }) }) });
    renderWithProviders(<ConnectionModal open whatsapp={whatsapp({ id: 5 })} onClose={vi.fn()} />, { auth });
    expect(screen.queryByTestId('connection-token')).toBeNull();
  });
});
