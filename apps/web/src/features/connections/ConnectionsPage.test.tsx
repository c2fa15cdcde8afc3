import { companyEvent } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import ConnectionsPage from './ConnectionsPage';
import { whatsapp } from './testing/fixtures';
import { fastUser } from './testing/user';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();

const list = [
  whatsapp({ id: 1, name: 'Aguardando', status: 'qrcode', qrcode: 'balcao-sandbox:1:abc', provider: 'sandbox' }),
  whatsapp({ id: 2, name: 'Caiu', status: 'DISCONNECTED', number: '5511999990000' }),
  whatsapp({ id: 3, name: 'Ok', status: 'CONNECTED', isDefault: true }),
  whatsapp({ id: 4, name: 'Pareando', status: 'PAIRING', qrcode: 'ABCD1234' }),
  whatsapp({ id: 5, name: 'Expirou', status: 'TIMEOUT' }),
  whatsapp({ id: 6, name: 'Abrindo', status: 'OPENING' }),
];

function api() {
  return mockApi({
    'GET /whatsapp': () => list,
    'GET /queue': () => [],
    'POST /whatsappsession/2': () => ({ message: 'ok' }),
    'PUT /whatsappsession/2': () => ({ message: 'ok' }),
    'DELETE /whatsappsession/3': () => ({ message: 'ok' }),
  });
}

const session = (id: number) => within(screen.getByTestId(`connection-session-${id}`));

describe('ConnectionsPage', () => {
  it('shows the session buttons of each status, the default flag and the last update', async () => {
    api();
    renderWithProviders(<ConnectionsPage />);
    await screen.findByTestId('connection-row-6');

    expect(session(1).getByTestId('connection-qrcode-1').textContent).toBe('QR CODE');
    expect(session(2).getByTestId('connection-retry-2').textContent).toBe('Tentar novamente');
    expect(session(2).getByTestId('connection-newqr-2').textContent).toBe('Novo QR CODE');
    for (const id of [3, 4, 5]) {
      expect(session(id).getByTestId(`connection-disconnect-${id}`).textContent).toBe('Desconectar');
      expect(session(id).getAllByRole('button')).toHaveLength(1);
    }
    const connecting = session(6).getByTestId('connection-connecting-6') as HTMLButtonElement;
    expect(connecting.textContent).toBe('Conectando');
    expect(connecting.disabled).toBe(true);

    expect(screen.getByTestId('connection-status-2').dataset.status).toBe('DISCONNECTED');
    // The pairing code is typed on the phone: it shows in the status, never as a QR code.
    expect(screen.getByTestId('connection-pairing-code-4').textContent).toBe('ABCD1234');
    expect(screen.queryByTestId('connection-pairing-code-1')).toBeNull();
    expect(screen.getByTestId('connection-default-3')).toBeTruthy();
    expect(screen.queryByTestId('connection-default-2')).toBeNull();
    const d = new Date(list[0].updatedAt);
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(screen.getByTestId('connection-updated-1').textContent).toBe(
      `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${pad(d.getFullYear() % 100)} ${pad(d.getHours())}:${pad(d.getMinutes())}`,
    );
    expect(screen.getByTestId('connections-add')).toBeTruthy();
    expect(screen.getByTestId('connection-edit-1')).toBeTruthy();
  });

  it('calls the session routes: try again, new QR code and (after confirming) disconnect', async () => {
    const calls = api();
    renderWithProviders(<ConnectionsPage />);
    await userEvent.click(await screen.findByTestId('connection-retry-2'));
    await waitFor(() => expect(calls.calls('POST /whatsappsession/2')).toHaveLength(1));
    await userEvent.click(screen.getByTestId('connection-newqr-2'));
    await waitFor(() => expect(calls.calls('PUT /whatsappsession/2')).toHaveLength(1));
    await userEvent.click(screen.getByTestId('connection-disconnect-3'));
    expect(calls.calls('DELETE /whatsappsession/3')).toHaveLength(0);
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(calls.calls('DELETE /whatsappsession/3')).toHaveLength(1));
  });

  it('opens the QR code modal and closes it when a session update brings an empty qrcode', async () => {
    api();
    renderWithProviders(<ConnectionsPage />);
    await userEvent.click(await screen.findByTestId('connection-qrcode-1'));
    expect((await screen.findByTestId('qrcode-payload')).textContent).toBe('balcao-sandbox:1:abc');
    // The payload drawn as a real QR code: an image with a PNG data URL.
    const image = (await screen.findByTestId('qrcode-image')) as HTMLImageElement;
    expect(image.tagName).toBe('IMG');
    expect(image.getAttribute('src')).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]{100,}={0,2}$/);
    const first = image.getAttribute('src');

    // A new QR code of the same connection keeps the modal open and shows the new payload and code.
    emitSocket(companyEvent.whatsappSession(1), {
      action: 'update',
      session: { ...list[0], qrcode: 'balcao-sandbox:1:def' },
    });
    await waitFor(() => expect(screen.getByTestId('qrcode-payload').textContent).toBe('balcao-sandbox:1:def'));
    await waitFor(() => {
      const src = screen.getByTestId('qrcode-image').getAttribute('src');
      expect(src).toMatch(/^data:image\/png;base64,/);
      expect(src).not.toBe(first);
    });
    // An update of another connection does not close it.
    emitSocket(companyEvent.whatsappSession(1), { action: 'update', session: { ...list[1], qrcode: '' } });
    expect(screen.getByTestId('qrcode-modal')).toBeTruthy();

    emitSocket(companyEvent.whatsappSession(1), {
      action: 'update',
      session: { ...list[0], status: 'CONNECTED', qrcode: '' },
    });
    await waitFor(() => expect(screen.queryByTestId('qrcode-modal')).toBeNull());
    expect(screen.getByTestId('connection-status-1').dataset.status).toBe('CONNECTED');
    expect(screen.getByTestId('connection-disconnect-1')).toBeTruthy();
  });

  it('offers a never-connected connection one action by provider, and the way to the Sandbox page', async () => {
    const fresh = [
      whatsapp({ id: 7, provider: 'beta', status: 'DISCONNECTED' }),
      whatsapp({ id: 8, provider: 'cloud', status: 'DISCONNECTED' }),
      whatsapp({ id: 9, provider: 'sandbox', status: 'DISCONNECTED' }),
    ];
    const calls = mockApi({
      'GET /whatsapp': () => fresh,
      'GET /queue': () => [],
      'POST /whatsappsession/9': () => ({ message: 'ok' }),
    });
    renderWithProviders(<ConnectionsPage />);
    await screen.findByTestId('connection-row-9');
    const expected = { 7: 'QR CODE', 8: 'Conectar', 9: 'Iniciar' };
    for (const [id, label] of Object.entries(expected)) {
      expect(
        session(Number(id))
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual([label]);
      expect(screen.getByTestId(`connection-status-${id}`).textContent).toBe('Ainda não conectada');
    }
    await userEvent.click(screen.getByTestId('connection-first-action-9'));
    await waitFor(() => expect(calls.calls('POST /whatsappsession/9')).toHaveLength(1));
    expect(screen.getByTestId('connections-sandbox-link').getAttribute('href')).toBe('/sandbox');
  });

  it('shows the QR code once the session a first "QR CODE" click started has produced one', async () => {
    const fresh = whatsapp({ id: 7, provider: 'beta', status: 'DISCONNECTED' });
    const calls = mockApi({
      'GET /whatsapp': () => [fresh],
      'GET /queue': () => [],
      'POST /whatsappsession/7': () => ({ message: 'ok' }),
    });
    renderWithProviders(<ConnectionsPage />);
    await userEvent.click(await screen.findByTestId('connection-first-action-7'));
    await waitFor(() => expect(calls.calls('POST /whatsappsession/7')).toHaveLength(1));
    emitSocket(companyEvent.whatsappSession(1), { action: 'update', session: { ...fresh, status: 'OPENING' } });
    expect(screen.queryByTestId('qrcode-modal')).toBeNull();
    emitSocket(companyEvent.whatsappSession(1), {
      action: 'update',
      session: { ...fresh, status: 'qrcode', qrcode: 'beta-qr-payload' },
    });
    expect((await screen.findByTestId('qrcode-payload')).textContent).toBe('beta-qr-payload');
  });

  it('applies live connection updates and deletions', async () => {
    api();
    renderWithProviders(<ConnectionsPage />);
    await screen.findByTestId('connection-row-1');
    emitSocket(companyEvent.whatsapp(1), { action: 'update', whatsapp: whatsapp({ id: 9, name: 'Nova' }) });
    expect(await screen.findByTestId('connection-row-9')).toBeTruthy();
    emitSocket(companyEvent.whatsapp(1), { action: 'delete', whatsappId: 2 });
    await waitFor(() => expect(screen.queryByTestId('connection-row-2')).toBeNull());
  });

  it('hides the session buttons and the admin actions from plain users', async () => {
    api();
    renderWithProviders(<ConnectionsPage />, { auth: authValue({ user: sessionUser({ profile: 'user' }) }) });
    await screen.findByTestId('connection-row-1');
    expect(screen.queryByTestId('connection-qrcode-1')).toBeNull();
    expect(screen.queryByTestId('connection-edit-1')).toBeNull();
    expect(screen.queryByTestId('connections-add')).toBeNull();
    expect(screen.queryByTestId('connections-sandbox-link')).toBeNull();
  });
});
