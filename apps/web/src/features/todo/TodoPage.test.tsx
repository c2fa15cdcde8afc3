import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { authValue, renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import TodoPage from './TodoPage';
import type { TodoItem } from './todoStorage';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);

// The fixture's session user: Ana, user 7 of company 1.
const ANA = { companyId: 1, userId: 7 };
const T0 = '2024-05-01T10:00:00.000Z';

function item(overrides: Partial<TodoItem> = {}): TodoItem {
  return { id: 'a', text: 'Ligar', status: 'stopped', ...ANA, createdAt: T0, updatedAt: T0, ...overrides };
}

function stored(): unknown[] {
  return JSON.parse(localStorage.getItem('tasks') ?? 'null') as unknown[];
}

function storedOwn(): TodoItem[] {
  return stored().filter(
    (e): e is TodoItem => (e as TodoItem).companyId === ANA.companyId && (e as TodoItem).userId === ANA.userId,
  );
}

function shownTexts(): string[] {
  return screen.queryAllByTestId('todo-item-text').map((el) => el.textContent ?? '');
}

function rowOf(text: string): HTMLElement {
  const row = screen.getByText(text).closest('li');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
}

async function addTask(text: string, status?: string) {
  await fill(screen.getByTestId('todo-text'), text);
  if (status) await userEvent.selectOptions(screen.getByTestId('todo-status'), status);
  await userEvent.click(screen.getByTestId('todo-add'));
}

describe('TodoPage', () => {
  it('adds with the button or Enter, trimmed, with the chosen status and the signed-in owner', async () => {
    renderWithProviders(<TodoPage />);
    expect(screen.getByTestId('todo-empty').textContent).toMatch(/Nenhuma tarefa/);
    expect(screen.getByTestId('todo-status')).toHaveProperty('value', 'stopped');
    expect(
      within(screen.getByTestId('todo-status'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Parado', 'Em Andamento', 'Resolvido']);

    await addTask('  Ligar para o fornecedor  ', 'inProgress');
    expect(shownTexts()).toEqual(['Ligar para o fornecedor']);
    expect(screen.getByTestId('todo-text')).toHaveProperty('value', '');
    expect(document.activeElement).toBe(screen.getByTestId('todo-text'));

    await fill(screen.getByTestId('todo-text'), 'Conferir o caixa');
    await userEvent.keyboard('{Enter}');
    expect(shownTexts()).toEqual(['Ligar para o fornecedor', 'Conferir o caixa']);
    expect(screen.getByTestId('todo-count').textContent).toBe('2 tarefas');

    const [first, second] = storedOwn();
    expect(first).toMatchObject({ text: 'Ligar para o fornecedor', status: 'inProgress', ...ANA });
    expect(second).toMatchObject({ text: 'Conferir o caixa', status: 'inProgress', ...ANA });
    expect(first?.id).not.toBe(second?.id);
    expect(Number.isNaN(Date.parse(first?.createdAt ?? ''))).toBe(false);
    expect(rowOf('Ligar para o fornecedor').getAttribute('data-status')).toBe('inProgress');
  });

  it('shows the "Erro" dialog for an empty or blank text and stores nothing', async () => {
    renderWithProviders(<TodoPage />);
    await userEvent.click(screen.getByTestId('todo-add'));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Erro')).toBeTruthy();
    expect(within(dialog).getByText('Não é possível adicionar uma tarefa sem texto.')).toBeTruthy();
    await userEvent.click(within(dialog).getByTestId('todo-error-ok'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await fill(screen.getByTestId('todo-text'), '    ');
    await userEvent.keyboard('{Enter}');
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Não é possível adicionar uma tarefa sem texto.')).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(localStorage.getItem('tasks')).toBeNull();
    expect(shownTexts()).toEqual([]);
  });

  it('takes at most 150 characters', async () => {
    renderWithProviders(<TodoPage />);
    const input = screen.getByTestId('todo-text');
    expect(input.getAttribute('maxlength')).toBe('150');
    await fill(input, 'x'.repeat(200));
    expect((input as HTMLInputElement).value).toHaveLength(150);
    expect(screen.getByText('150/150')).toBeTruthy();
    await userEvent.click(screen.getByTestId('todo-add'));
    expect(storedOwn()[0]?.text).toBe('x'.repeat(150));
  });

  it('changes the status of an item, colouring it, and filters by status', async () => {
    localStorage.setItem(
      'tasks',
      JSON.stringify([
        item({ id: '1', text: 'Parada' }),
        item({ id: '2', text: 'Andando', status: 'inProgress' }),
        item({ id: '3', text: 'Pronta', status: 'resolved' }),
      ]),
    );
    renderWithProviders(<TodoPage />);
    expect(shownTexts()).toEqual(['Parada', 'Andando', 'Pronta']);
    const parada = rowOf('Parada');
    const stoppedColour = getComputedStyle(parada).borderLeftColor;
    expect(stoppedColour).not.toBe(getComputedStyle(rowOf('Pronta')).borderLeftColor);

    await userEvent.selectOptions(screen.getByTestId('todo-item-status-1'), 'resolved');
    expect(rowOf('Parada').getAttribute('data-status')).toBe('resolved');
    expect(getComputedStyle(rowOf('Parada')).borderLeftColor).toBe(getComputedStyle(rowOf('Pronta')).borderLeftColor);
    expect(storedOwn().find((i) => i.id === '1')).toMatchObject({ status: 'resolved' });
    expect(storedOwn().find((i) => i.id === '1')?.updatedAt).not.toBe(T0);

    const filter = screen.getByTestId('todo-filter');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Todos', 'Parado', 'Em Andamento', 'Resolvido']);
    await userEvent.selectOptions(filter, 'resolved');
    expect(shownTexts()).toEqual(['Parada', 'Pronta']);
    await userEvent.selectOptions(filter, 'inProgress');
    expect(shownTexts()).toEqual(['Andando']);
    await userEvent.selectOptions(filter, 'stopped');
    expect(shownTexts()).toEqual([]);
    expect(screen.getByTestId('todo-empty').textContent).toBe('Nenhuma tarefa com este status.');
    await userEvent.selectOptions(filter, 'all');
    expect(shownTexts()).toEqual(['Parada', 'Andando', 'Pronta']);
  });

  it('deletes an item', async () => {
    localStorage.setItem('tasks', JSON.stringify([item({ id: '1', text: 'Uma' }), item({ id: '2', text: 'Outra' })]));
    renderWithProviders(<TodoPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Excluir a tarefa: Uma' }));
    expect(shownTexts()).toEqual(['Outra']);
    expect(storedOwn().map((i) => i.id)).toEqual(['2']);
  });

  it('shows and edits only the signed-in user’s items: other users’ and ownerless entries survive', async () => {
    const bia = item({ id: 'b1', userId: 8, text: 'Tarefa da Bia' });
    const otherCompany = item({ id: 'c1', companyId: 2, text: 'Outra empresa, mesmo id de usuário' });
    const legacy = { text: 'Legado sem dono', status: 'Parado', createdAt: T0 };
    const sameIdAsMine = item({ id: 'a1', userId: 8, text: 'Bia, mesmo id' });
    localStorage.setItem(
      'tasks',
      JSON.stringify([bia, legacy, item({ id: 'a1', text: 'Minha' }), otherCompany, sameIdAsMine]),
    );
    renderWithProviders(<TodoPage />);
    expect(shownTexts()).toEqual(['Minha']);

    await addTask('Mais uma');
    await userEvent.selectOptions(screen.getByTestId('todo-item-status-a1'), 'inProgress');
    await userEvent.click(screen.getByTestId('todo-item-delete-a1'));
    expect(shownTexts()).toEqual(['Mais uma']);

    const after = stored();
    expect(after.slice(0, 4)).toEqual([bia, legacy, otherCompany, sameIdAsMine]);
    expect(after).toHaveLength(5);
    expect(after[4]).toMatchObject({ text: 'Mais uma', ...ANA });

    // Bia signs in on the same browser: she sees hers, not Ana's.
    renderWithProviders(<TodoPage />, { auth: authValue({ user: sessionUser({ id: 8 }) }) });
    const lists = screen.getAllByTestId('todo-list');
    expect(
      within(lists[1] as HTMLElement)
        .getAllByTestId('todo-item-text')
        .map((e) => e.textContent),
    ).toEqual(['Tarefa da Bia', 'Bia, mesmo id']);
  });

  it('tolerates a malformed stored value and replaces it on the first add', async () => {
    localStorage.setItem('tasks', '{not json');
    renderWithProviders(<TodoPage />);
    expect(screen.getByTestId('todo-empty')).toBeTruthy();
    await addTask('Primeira');
    expect(stored()).toEqual([expect.objectContaining({ text: 'Primeira', ...ANA })]);
  });

  it('follows changes made in another tab', async () => {
    renderWithProviders(<TodoPage />);
    localStorage.setItem('tasks', JSON.stringify([item({ id: 'x', text: 'De outra aba' })]));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'tasks' }));
    });
    expect(shownTexts()).toEqual(['De outra aba']);
  });

  it('says so when the browser refuses to store', async () => {
    renderWithProviders(<TodoPage />);
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    try {
      await addTask('Não cabe');
    } finally {
      setItem.mockRestore();
    }
    expect(toast.error).toHaveBeenCalledWith('Não foi possível guardar as tarefas neste navegador.');
    expect(shownTexts()).toEqual([]);
    expect(screen.getByTestId('todo-text')).toHaveProperty('value', 'Não cabe');
  });
});
