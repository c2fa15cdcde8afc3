import { CONNECTION_BADGE_DELAY_MS, companyEvent } from '@balcao/shared';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { emitSocket } from '../../test/fakeSocket';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders, testQueryClient } from '../../test/render';
import { ConnectionWarningBadge } from './ConnectionWarningBadge';
import { whatsapp } from './testing/fixtures';

vi.mock('../../app/RealtimeProvider', () => import('../../test/fakeSocket'));

function renderBadge(list = [whatsapp({ id: 1, status: 'CONNECTED' }), whatsapp({ id: 2, status: 'qrcode' })]) {
  mockApi({ 'GET /whatsapp': () => list });
  const queryClient = testQueryClient();
  queryClient.setQueryData(queryKeys.whatsapps, list);
  renderWithProviders(
    <ConnectionWarningBadge>
      <span>icon</span>
    </ConnectionWarningBadge>,
    { queryClient },
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('connections warning badge', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('appears 2 s after a connection needs attention', async () => {
    renderBadge();
    await advance(CONNECTION_BADGE_DELAY_MS - 1);
    expect(screen.queryByTestId('connections-warning-badge')).toBeNull();
    await advance(1);
    expect(screen.getByTestId('connections-warning-badge')).toBeTruthy();
  });

  it('never appears when every connection is connected', async () => {
    renderBadge([whatsapp({ id: 1, status: 'CONNECTED' })]);
    await advance(CONNECTION_BADGE_DELAY_MS * 2);
    expect(screen.queryByTestId('connections-warning-badge')).toBeNull();
  });

  it('follows the live session events', async () => {
    renderBadge();
    await advance(CONNECTION_BADGE_DELAY_MS);
    expect(screen.getByTestId('connections-warning-badge')).toBeTruthy();

    emitSocket(companyEvent.whatsappSession(1), {
      action: 'update',
      session: whatsapp({ id: 2, status: 'CONNECTED' }),
    });
    await advance(0);
    expect(screen.queryByTestId('connections-warning-badge')).toBeNull();

    emitSocket(companyEvent.whatsapp(1), { action: 'update', whatsapp: whatsapp({ id: 1, status: 'DISCONNECTED' }) });
    await advance(CONNECTION_BADGE_DELAY_MS - 1);
    expect(screen.queryByTestId('connections-warning-badge')).toBeNull();
    await advance(1);
    expect(screen.getByTestId('connections-warning-badge')).toBeTruthy();
  });
});
