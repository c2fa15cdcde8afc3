import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { toast } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ColorModeProvider } from './ColorModeProvider';
import { Toasts, toastMsAt } from './Toasts';

/**
 * react-toastify times a toast with a CSS animation of its progress bar and closes it when that
 * animation ends. jsdom runs no CSS: `advance` plays the browser's part on the fake clock, ending a
 * running progress animation once its declared duration has elapsed, and the enter/exit
 * animations at once.
 */
const ran = new WeakMap<Element, number>();

function endTransitions() {
  for (const node of document.querySelectorAll('.Toastify__toast')) fireEvent.animationEnd(node);
}

async function advance(ms: number) {
  endTransitions();
  for (const bar of document.querySelectorAll<HTMLElement>('.Toastify__progress-bar--animated')) {
    if (bar.style.animationPlayState !== 'running') continue;
    const total = (ran.get(bar) ?? 0) + ms;
    ran.set(bar, total);
    if (total >= Number.parseFloat(bar.style.animationDuration)) fireEvent.animationEnd(bar);
  }
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** The exit animation and the collapse that follows it, once a toast is closing. */
async function settle() {
  endTransitions();
  await act(() => vi.advanceTimersByTimeAsync(1000));
}

function renderAt(pathname: string) {
  render(
    <ColorModeProvider>
      <MemoryRouter initialEntries={[pathname]}>
        <Toasts />
      </MemoryRouter>
    </ColorModeProvider>,
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  // Toasts pause while the window has no focus, and jsdom's never has it.
  vi.spyOn(document, 'hasFocus').mockReturnValue(true);
});
afterEach(() => {
  act(() => toast.dismiss());
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('toast durations by spec area', () => {
  it.each([
    ['/tags', 3000],
    ['/tickets/00000000-0000-4000-8000-000000000001', 2000],
  ])('a toast on %s closes after %i ms', async (pathname, ms) => {
    renderAt(pathname);
    act(() => {
      toast.success('Operação realizada com sucesso!');
    });
    const shown = () => screen.getByText('Operação realizada com sucesso!').closest('.Toastify__toast');
    await advance(0);
    await advance(ms - 1);
    expect(shown()?.getAttribute('data-in')).toBe('true');
    await advance(1);
    expect(shown()?.getAttribute('data-in')).toBe('false');
    await settle();
    expect(screen.queryByText('Operação realizada com sucesso!')).toBeNull();
  });

  it('knows which screens are part 1 (2 s) and which part 2 (3000 ms)', () => {
    for (const path of ['/login', '/tickets', '/tickets/abc', '/connections']) expect(toastMsAt(path)).toBe(2000);
    for (const path of ['/', '/contacts', '/users', '/queues', '/quick-messages', '/tags', '/settings', '/kanban'])
      expect(toastMsAt(path)).toBe(3000);
  });
});
