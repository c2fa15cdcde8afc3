import { companyEvent } from '@balcao/shared';
import { screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { sessionUser } from '../../test/fixtures';
import { mockApi } from '../../test/mockApi';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import { TagModal } from './TagModal';
import TagsPage from './TagsPage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

describe('TagModal', () => {
  it('needs a name of at least 3 characters and saves the kanban flag', async () => {
    const api = mockApi({ 'POST /tags': (body) => ({ status: 201, body: { id: 3, ...(body as object) } }) });
    const onClose = vi.fn();
    renderWithProviders(<TagModal open tag={null} onClose={onClose} />);

    await fill(screen.getByTestId('tag-name'), 'VI');
    await userEvent.click(screen.getByTestId('tag-modal-submit'));
    expect(await screen.findByText('Mensagem muito curta')).toBeTruthy();

    await fill(screen.getByTestId('tag-name'), 'P');
    await userEvent.click(screen.getByTestId('tag-kanban'));
    await userEvent.click(screen.getByTestId('tag-modal-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls('POST /tags')).toEqual([{ name: 'VIP', color: '#5C59A0', kanban: 1 }]);
    expect(toast.success).toHaveBeenCalledWith('Tag salva com sucesso!');
  });

  it('hides the kanban switch from plain users', () => {
    mockApi({});
    renderWithProviders(<TagModal open tag={null} onClose={vi.fn()} />, {
      auth: authValue({ user: sessionUser({ profile: 'user' }) }),
    });
    expect(screen.getByTestId('tag-name')).toBeTruthy();
    expect(screen.queryByTestId('tag-kanban')).toBeNull();
  });
});

describe('TagsPage', () => {
  it('lists tags with their usage, deletes after confirming and follows live events', async () => {
    const api = mockApi({
      'GET /tags': () => ({
        tags: [
          { id: 1, name: 'VIP', color: '#B80000', kanban: 1, ticketsCount: 4 },
          { id: 2, name: 'Novo', color: '#008B02', kanban: 0, ticketsCount: 1 },
        ],
        count: 2,
        hasMore: false,
      }),
      'DELETE /tags/2': () => ({ message: 'ok' }),
    });
    renderWithProviders(<TagsPage />);
    expect((await screen.findByTestId('tag-count-1')).textContent).toBe('4');
    expect(screen.getByTestId('tag-usage-1').getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByTestId('tag-usage-2').getAttribute('aria-valuenow')).toBe('25');

    await userEvent.click(screen.getByTestId('tag-delete-2'));
    await userEvent.click(screen.getByTestId('confirmation-confirm'));
    await waitFor(() => expect(api.calls('DELETE /tags/2')).toHaveLength(1));

    emitSocket(companyEvent.tag(1), {
      action: 'update',
      tag: { id: 1, name: 'Cliente VIP', color: '#B80000', kanban: 1 },
    });
    await waitFor(() => expect(screen.getByTestId('tag-chip-1').textContent).toBe('Cliente VIP'));
    expect(screen.getByTestId('tag-count-1').textContent).toBe('4');
    emitSocket(companyEvent.tag(1), { action: 'delete', tagId: 1 });
    await waitFor(() => expect(screen.queryByTestId('tag-row-1')).toBeNull());
  });
});
