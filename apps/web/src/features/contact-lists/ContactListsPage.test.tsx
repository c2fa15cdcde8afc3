import { type ContactList, type ContactListItem, companyEvent } from '@balcao/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { fastUser, fill as fillField } from '../connections/testing/user';
import ContactListItemsPage from './ContactListItemsPage';
import ContactListsPage from './ContactListsPage';
import { applyContactListItemEvent, type ContactListItemsData } from './contactListsCache';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

const userEvent = fastUser();
const fill = (field: HTMLElement, text: string) => fillField(userEvent, field, text);
const companyId = 1;

function contactList(overrides: Partial<ContactList> = {}): ContactList {
  return {
    id: 3,
    name: 'Clientes VIP',
    companyId,
    contactsCount: 2,
    validCount: 1,
    invalidCount: 1,
    uncheckedCount: 0,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function item(overrides: Partial<ContactListItem> = {}): ContactListItem {
  return {
    id: 10,
    name: 'Maria',
    number: '5511999990000',
    email: 'maria@example.com',
    isWhatsappValid: true,
    variables: {},
    contactListId: 3,
    companyId,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

function renderRoutes(path: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/contact-lists" element={<ContactListsPage />} />
        <Route path="/contact-lists/:contactListId/contacts" element={<ContactListItemsPage />} />
      </Routes>
      <Location />
    </>,
    { path },
  );
}

describe('ContactListsPage', () => {
  it('lists with the counts, validates the name and creates a list', async () => {
    const calls = mockApi({
      'GET /contact-lists': () => ({ records: [contactList()], count: 1, hasMore: false }),
      'POST /contact-lists': (body) => ({ status: 201, body: contactList({ id: 4, ...(body as object) }) }),
    });
    renderRoutes('/contact-lists');
    expect((await screen.findByTestId('contact-lists-count')).textContent).toBe('1 lista');
    expect(screen.getByTestId('contact-list-contacts-3').textContent).toBe('2');
    expect(screen.getByTestId('contact-list-checks-3').textContent).toBe('1 válido1 inválido0 não verificados');

    await userEvent.click(screen.getByTestId('contact-lists-add'));
    await userEvent.click(screen.getByTestId('contact-list-modal-submit'));
    expect(await screen.findByText('Obrigatório')).toBeTruthy();
    await fill(screen.getByTestId('contact-list-name'), 'a');
    await userEvent.click(screen.getByTestId('contact-list-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    await fill(screen.getByTestId('contact-list-name'), 'x'.repeat(50));
    await userEvent.click(screen.getByTestId('contact-list-modal-submit'));
    expect(await screen.findByText('Muito longo!')).toBeTruthy();
    await userEvent.clear(screen.getByTestId('contact-list-name'));
    await fill(screen.getByTestId('contact-list-name'), 'Leads');
    await userEvent.click(screen.getByTestId('contact-list-modal-submit'));
    await waitFor(() => expect(calls.calls('POST /contact-lists')).toEqual([{ name: 'Leads' }]));
    await waitFor(() => expect(screen.queryByTestId('contact-list-modal')).toBeNull());
    expect(toast.success).toHaveBeenCalledWith('Lista de contatos salva com sucesso!');
  });

  it('deletes after confirmation, follows live events and opens a list on a row click', async () => {
    const calls = mockApi({
      'GET /contact-lists': () => ({ records: [contactList()], count: 1, hasMore: false }),
      'DELETE /contact-lists/3': () => ({ message: 'ok' }),
      'GET /contact-lists/3': () => contactList(),
      'GET /contact-list-items': () => ({ contacts: [], count: 0, hasMore: false }),
    });
    renderRoutes('/contact-lists');
    await userEvent.click(await screen.findByTestId('contact-list-delete-3'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Clientes VIP/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: /excluir|sim|ok|confirmar/i }));
    await waitFor(() => expect(calls.calls('DELETE /contact-lists/3')).toHaveLength(1));

    emitSocket(companyEvent.contactList(companyId), { action: 'create', record: contactList({ id: 5, name: 'Nova' }) });
    expect(await screen.findByTestId('contact-list-row-5')).toBeTruthy();
    emitSocket(companyEvent.contactList(companyId), {
      action: 'update',
      record: contactList({ id: 5, contactsCount: 9 }),
    });
    await waitFor(() => expect(screen.getByTestId('contact-list-contacts-5').textContent).toBe('9'));
    emitSocket(companyEvent.contactList(companyId), { action: 'delete', id: 5 });
    await waitFor(() => expect(screen.queryByTestId('contact-list-row-5')).toBeNull());

    emitSocket(companyEvent.contactList(companyId), { action: 'create', record: contactList({ id: 3 }) });
    await userEvent.click(await screen.findByTestId('contact-list-row-3'));
    expect(screen.getByTestId('location').textContent).toBe('/contact-lists/3/contacts');
  });
});

describe('ContactListItemsPage', () => {
  function api(items: ContactListItem[]) {
    return mockApi({
      'GET /contact-lists/3': () => contactList(),
      'GET /contact-list-items': () => ({ contacts: items, count: items.length, hasMore: false }),
      'POST /contact-list-items': (body) => ({ status: 201, body: item({ id: 11, ...(body as object) }) }),
      'PUT /contact-list-items/10': (body) => item(body as Partial<ContactListItem>),
      'DELETE /contact-list-items/10': () => ({ message: 'ok' }),
      'GET /contact-lists': () => ({ records: [contactList()], count: 1, hasMore: false }),
    });
  }

  it('renders the list name and its items with the WhatsApp check', async () => {
    const calls = api([item(), item({ id: 12, isWhatsappValid: false }), item({ id: 13, isWhatsappValid: null })]);
    renderRoutes('/contact-lists/3/contacts');
    await waitFor(() => expect(screen.getByTestId('contact-list-title').textContent).toBe('Clientes VIP'));
    expect((await screen.findByTestId('contact-list-items-count')).textContent).toBe('3 contatos');
    expect(within(screen.getByTestId('contact-list-item-whatsapp-10')).getByTitle('WhatsApp válido')).toBeTruthy();
    expect(within(screen.getByTestId('contact-list-item-whatsapp-12')).getByTitle('WhatsApp inválido')).toBeTruthy();
    expect(screen.getByTestId('contact-list-item-whatsapp-13').textContent).toBe('—');
    const query = new URL(String(calls.fetch.mock.calls.find(([u]) => String(u).includes('/contact-list-items'))?.[0]));
    expect(query.searchParams.get('contactListId')).toBe('3');
    expect(screen.getByTestId('contact-import')).toBeTruthy();
  });

  it('validates the number and the e-mail, then adds an item to the list', async () => {
    const calls = api([]);
    renderRoutes('/contact-lists/3/contacts');
    await userEvent.click(await screen.findByTestId('contact-list-items-add'));
    await fill(screen.getByTestId('contact-list-item-name'), 'João');
    await fill(screen.getByTestId('contact-list-item-number'), '1234');
    await fill(screen.getByTestId('contact-list-item-email'), 'joao@');
    await userEvent.click(screen.getByTestId('contact-list-item-modal-submit'));
    expect(await screen.findByText('Muito curto!')).toBeTruthy();
    expect(screen.getByText('E-mail inválido')).toBeTruthy();
    expect(calls.calls('POST /contact-list-items')).toHaveLength(0);

    await fill(screen.getByTestId('contact-list-item-number'), '5678900');
    await fill(screen.getByTestId('contact-list-item-email'), 'x.com');
    await userEvent.click(screen.getByTestId('contact-list-item-modal-submit'));
    await waitFor(() =>
      expect(calls.calls('POST /contact-list-items')).toEqual([
        { name: 'João', number: '12345678900', email: 'joao@x.com', contactListId: 3 },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId('contact-list-item-modal')).toBeNull());
  });

  it('uploads an import to the list, and goes back to the lists', async () => {
    const routes = mockApi({
      'GET /contact-lists/3': () => contactList(),
      'GET /contact-list-items': () => ({ contacts: [], count: 0, hasMore: false }),
      'GET /contact-lists': () => ({ records: [contactList()], count: 1, hasMore: false }),
      'POST /contact-lists/3/upload': () => ({
        status: 202,
        body: {
          id: 1,
          status: 'pending',
          total: 0,
          processed: 0,
          imported: 0,
          rejected: 0,
          contactListId: 3,
          error: null,
        },
      }),
    });
    renderRoutes('/contact-lists/3/contacts');
    await screen.findByTestId('contact-list-title');
    await userEvent.upload(screen.getByTestId('contact-import-file'), new File(['name,number'], 'l.csv'));
    await waitFor(() =>
      expect(routes.fetch.mock.calls.some(([u]) => new URL(String(u)).pathname === '/contact-lists/3/upload')).toBe(
        true,
      ),
    );
    await userEvent.click(screen.getByTestId('contact-list-items-back'));
    expect(screen.getByTestId('location').textContent).toBe('/contact-lists');
  });

  it('deletes an item after confirmation and follows live item events', async () => {
    const calls = api([item()]);
    renderRoutes('/contact-lists/3/contacts');
    await screen.findByTestId('contact-list-item-row-10');
    emitSocket(companyEvent.contactListItem(companyId), { action: 'create', record: item({ id: 20, name: 'Novo' }) });
    expect(await screen.findByTestId('contact-list-item-row-20')).toBeTruthy();
    // An item of another list stays out.
    emitSocket(companyEvent.contactListItem(companyId), {
      action: 'create',
      record: item({ id: 21, contactListId: 9 }),
    });
    expect(screen.queryByTestId('contact-list-item-row-21')).toBeNull();
    emitSocket(companyEvent.contactListItem(companyId), { action: 'delete', id: 20 });
    await waitFor(() => expect(screen.queryByTestId('contact-list-item-row-20')).toBeNull());

    await userEvent.click(screen.getByTestId('contact-list-item-delete-10'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /excluir|sim|ok|confirmar/i }));
    await waitFor(() => expect(calls.calls('DELETE /contact-list-items/10')).toHaveLength(1));
  });

  it('reloads its items on an event of its list, and leaves when the list is deleted', async () => {
    const calls = api([item()]);
    renderRoutes('/contact-lists/3/contacts');
    await screen.findByTestId('contact-list-item-row-10');
    const before = calls.calls('GET /contact-list-items').length;
    emitSocket(companyEvent.contactList(companyId), { action: 'update', record: contactList({ name: 'Renomeada' }) });
    await waitFor(() => expect(screen.getByTestId('contact-list-title').textContent).toBe('Renomeada'));
    await waitFor(() => expect(calls.calls('GET /contact-list-items').length).toBeGreaterThan(before));
    emitSocket(companyEvent.contactList(companyId), { action: 'delete', id: 3 });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/contact-lists'));
  });
});

describe('applyContactListItemEvent', () => {
  const data = (contacts: ContactListItem[]): ContactListItemsData => ({
    pages: [{ contacts, count: contacts.length, hasMore: false }],
    pageParams: [1],
  });
  it('does not prepend while a search is shown, and replaces in place', () => {
    const searched = applyContactListItemEvent(data([item()]), { action: 'create', record: item({ id: 2 }) }, 3, 'ma');
    expect(searched?.pages[0].contacts.map((c) => c.id)).toEqual([10]);
    const updated = applyContactListItemEvent(data([item()]), { action: 'update', record: item({ name: 'Nova' }) }, 3);
    expect(updated?.pages[0].contacts[0].name).toBe('Nova');
    expect(updated?.pages[0].count).toBe(1);
  });
});
