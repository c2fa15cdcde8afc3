import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { whatsapp } from '../connections/testing/fixtures';
import { fastUser, fill as fillField } from '../connections/testing/user';
import SandboxPage from './SandboxPage';
import type { SandboxOutboundItem } from './sandboxApi';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

function outboundItem(overrides: Partial<SandboxOutboundItem> = {}): SandboxOutboundItem {
  return {
    id: 1,
    providerId: 'SBXOUT1',
    body: 'Olá! Em que posso ajudar?',
    media: null,
    quotedProviderId: null,
    ack: 1,
    deleted: false,
    sends: 1,
    createdAt: new Date(Date.now() + 60_000).toISOString(),
    ...overrides,
  };
}

describe('SandboxPage', () => {
  it('sends as the contact, polls the replies and acknowledges them', async () => {
    let outbound: SandboxOutboundItem[] = [];
    const api = mockApi({
      'GET /whatsapp': () => [
        whatsapp({ id: 1, name: 'Beta', provider: 'beta' }),
        whatsapp({ id: 2, name: 'Simulador', provider: 'sandbox', status: 'CONNECTED' }),
      ],
      'POST /sandbox/2/inbound': () => {
        outbound = [outboundItem()];
        return { providerId: 'SBXIN1' };
      },
      'GET /sandbox/2/outbound': () => outbound,
      'POST /sandbox/2/ack': (body) => {
        outbound = [{ ...outbound[0], ack: (body as { ack: number }).ack }];
        return { message: 'ok' };
      },
    });
    renderWithProviders(<SandboxPage />);

    const select = (await screen.findByTestId('sandbox-connection-select')) as HTMLSelectElement;
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Simulador']),
    );
    expect(screen.queryByTestId('sandbox-scan')).toBeNull();

    await fill(screen.getByTestId('sandbox-number'), '55 11 91234-5678');
    expect((screen.getByTestId('sandbox-number') as HTMLInputElement).value).toBe('5511912345678');
    await fill(screen.getByTestId('sandbox-name'), 'Carla');
    await fill(screen.getByTestId('sandbox-body'), 'Oi, quero um orçamento');
    await userEvent.upload(screen.getByTestId('sandbox-attach'), new File(['hi'], 'foto.png', { type: 'image/png' }));
    await screen.findByTestId('sandbox-attachment');
    await userEvent.click(screen.getByTestId('sandbox-send'));

    await waitFor(() => expect(api.calls('POST /sandbox/2/inbound')).toHaveLength(1));
    expect(api.calls('POST /sandbox/2/inbound')[0]).toEqual({
      number: '5511912345678',
      name: 'Carla',
      body: 'Oi, quero um orçamento',
      media: { fileName: 'foto.png', mimetype: 'image/png', base64: btoa('hi') },
    });
    const list = screen.getByTestId('sandbox-outbound-list');
    expect(within(list).getByTestId('sandbox-in-SBXIN1').textContent).toContain('Oi, quero um orçamento');
    expect((screen.getByTestId('sandbox-body') as HTMLTextAreaElement).value).toBe('');

    // The reply shows up by polling (every 1.5 s), after the contact's message.
    const reply = await within(list).findByTestId('sandbox-out-1', {}, { timeout: 4000 });
    expect(reply.textContent).toContain('Olá! Em que posso ajudar?');
    const bubbles = within(list).getAllByTestId(/^sandbox-(in|out)-/);
    expect(bubbles.map((b) => b.dataset.side)).toEqual(['contact', 'company']);
    expect(new URL(String(api.fetch.mock.calls.find(([u]) => String(u).includes('/outbound'))?.[0])).search).toBe(
      '?number=5511912345678',
    );

    await userEvent.click(screen.getByTestId('sandbox-ack-read-1'));
    await waitFor(() => expect(api.calls('POST /sandbox/2/ack')).toEqual([{ providerId: 'SBXOUT1', ack: 3 }]));
    await waitFor(() => expect((screen.getByTestId('sandbox-ack-read-1') as HTMLButtonElement).disabled).toBe(true));

    // Later replies arrive by polling alone.
    outbound = [...outbound, outboundItem({ id: 2, providerId: 'SBXOUT2', body: 'Qual produto?' })];
    expect(await within(list).findByTestId('sandbox-out-2', {}, { timeout: 4000 })).toBeTruthy();
  });

  it('starts and scans a sandbox connection that is not connected', async () => {
    const api = mockApi({
      'GET /whatsapp': () => [whatsapp({ id: 3, name: 'Simulador', provider: 'sandbox', status: 'qrcode' })],
      'POST /sandbox/3/scan': () => ({ message: 'Connected' }),
    });
    renderWithProviders(<SandboxPage />);
    expect((await screen.findByTestId('sandbox-connection-status')).dataset.status).toBe('qrcode');
    await userEvent.click(screen.getByTestId('sandbox-scan'));
    await waitFor(() => expect(api.calls('POST /sandbox/3/scan')).toHaveLength(1));
    expect((screen.getByTestId('sandbox-send') as HTMLButtonElement).disabled).toBe(true);
  });

  it('explains how to get a sandbox connection when there is none', async () => {
    mockApi({ 'GET /whatsapp': () => [whatsapp({ id: 1, provider: 'beta' })] });
    renderWithProviders(<SandboxPage />);
    expect(await screen.findByTestId('sandbox-empty')).toBeTruthy();
  });
});
