import { ANNOUNCEMENT_EVENT, type Announcement } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announcement } from '../features/announcements/testing';
import { fastUser } from '../features/connections/testing/user';
import { emitSocket } from '../test/fakeSocket';
import { sessionUser } from '../test/fixtures';
import { mockApi } from '../test/mockApi';
import { authValue, renderWithProviders } from '../test/render';
import { AnnouncementsPopover } from './AnnouncementsPopover';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../app/RealtimeProvider', () => import('../test/fakeSocket'));

const userEvent = fastUser();

const high = announcement({
  id: 3,
  title: 'Manutenção hoje',
  priority: 1,
  text: '<b>negrito</b>\n<img src=x onerror="alert(1)">',
  mediaPath: '/announcements/3/media/cartaz.png',
  mediaName: 'cartaz.png',
});
const medium = announcement({ id: 2, title: 'Nova função', priority: 2 });
const low = announcement({ id: 1, title: 'Dica', priority: 3 });

function api(first: Announcement[], second: Announcement[] = []) {
  return mockApi({
    'GET /announcements/active': (_body, url) =>
      url.searchParams.get('pageNumber') === '2'
        ? { records: second, count: first.length + second.length, hasMore: false }
        : { records: first, count: first.length + second.length, hasMore: second.length > 0 },
    'GET /announcements/3/media/cartaz.png': () => ({ png: true }),
  });
}

const render = () =>
  renderWithProviders(<AnnouncementsPopover />, { auth: authValue({ user: sessionUser({ id: 7, profile: 'user' }) }) });
/** The badge's number; an empty badge is hidden (MUI keeps its last text while it fades out). */
const unread = () => {
  const badge = screen.getByTestId('announcements-unread');
  return badge.classList.contains('MuiBadge-invisible') ? '' : badge.textContent;
};

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:cartaz'), revokeObjectURL: vi.fn() }));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AnnouncementsPopover', () => {
  it('shows the active ones newest first, coloured by priority, text as text, with the image', async () => {
    const { fetch } = api([high, medium, low]);
    render();
    await userEvent.click(screen.getByTestId('announcements-button'));
    const popover = await screen.findByTestId('announcements-popover');
    await within(popover).findByTestId('announcement-item-3');
    const items = within(popover).getAllByTestId(/^announcement-item-/);
    expect(items.map((item) => item.dataset.testid)).toEqual([
      'announcement-item-3',
      'announcement-item-2',
      'announcement-item-1',
    ]);
    expect(items.map((item) => within(item).getByText(/^(Alta|Média|Baixa)$/).textContent)).toEqual([
      'Alta',
      'Média',
      'Baixa',
    ]);
    const borders = items.map((item) => getComputedStyle(item).borderLeftColor);
    expect(new Set(borders).size).toBe(3);

    const text = screen.getByTestId('announcement-text-3');
    expect(text.textContent).toBe('<b>negrito</b>\n<img src=x onerror="alert(1)">');
    expect(text.querySelector('b, img')).toBeNull();

    const image = await within(items[0]).findByRole('img', { name: 'cartaz.png' });
    expect(image.getAttribute('src')).toBe('blob:cartaz');
    expect(fetch.mock.calls.some(([input]) => String(input).endsWith('/announcements/3/media/cartaz.png'))).toBe(true);
  });

  it('loads the next page near the bottom', async () => {
    api([high, medium], [low]);
    render();
    await userEvent.click(screen.getByTestId('announcements-button'));
    const list = await screen.findByTestId('announcements-popover-list');
    await within(list).findByTestId('announcement-item-2');
    expect(within(list).queryByTestId('announcement-item-1')).toBeNull();
    Object.defineProperties(list, {
      scrollHeight: { configurable: true, value: 1000 },
      clientHeight: { configurable: true, value: 400 },
      scrollTop: { configurable: true, value: 550 },
    });
    fireEvent.scroll(list);
    expect(await within(list).findByTestId('announcement-item-1')).toBeTruthy();
  });

  it('counts what is new since the user last opened it, per user, and follows the live event', async () => {
    api([medium, low]);
    const { unmount } = render();
    await waitFor(() => expect(unread()).toBe('2'));

    await userEvent.click(screen.getByTestId('announcements-button'));
    await waitFor(() => expect(unread()).toBe(''));
    expect(Number(localStorage.getItem('announcementsSeenAt:7'))).toBe(Date.parse(medium.createdAt));

    emitSocket(ANNOUNCEMENT_EVENT, { action: 'create', record: high });
    expect(await screen.findByTestId('announcement-item-3')).toBeTruthy();
    await waitFor(() => expect(unread()).toBe('1'));
    fireEvent.keyDown(screen.getByTestId('announcements-popover'), { key: 'Escape' });
    await waitFor(() => expect(unread()).toBe(''));

    // Turned inactive (the super user's update) or deleted: gone from the popover.
    emitSocket(ANNOUNCEMENT_EVENT, { action: 'update', record: { ...medium, status: false } });
    emitSocket(ANNOUNCEMENT_EVENT, { action: 'delete', id: 1 });
    await userEvent.click(screen.getByTestId('announcements-button'));
    await waitFor(() => expect(screen.queryByTestId('announcement-item-2')).toBeNull());
    expect(screen.queryByTestId('announcement-item-1')).toBeNull();
    expect(screen.getByTestId('announcement-item-3')).toBeTruthy();
    unmount();

    // Another user of this browser has seen nothing yet.
    renderWithProviders(<AnnouncementsPopover />, { auth: authValue({ user: sessionUser({ id: 8 }) }) });
    await waitFor(() => expect(unread()).toBe('2'));
  });

  it('shows "n+" when every loaded one is new and more pages exist', async () => {
    api([high, medium], [low]);
    render();
    await waitFor(() => expect(unread()).toBe('2+'));
  });

  it('says when there is none', async () => {
    api([]);
    render();
    await userEvent.click(screen.getByTestId('announcements-button'));
    expect((await screen.findByTestId('announcements-empty')).textContent).toBe('Nenhum informativo');
  });
});
