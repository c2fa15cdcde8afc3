import { STORAGE } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import { plan, sessionUser } from '../test/fixtures';
import { gates, passesGate } from './gates';
import { appRoutes, routeOf } from './routes';

describe('passesGate', () => {
  const admin = sessionUser({ profile: 'admin' });
  const agent = sessionUser({ profile: 'user' });

  it('lets every signed-in user through a private gate', () => {
    expect(passesGate(gates.private, agent)).toBe(true);
  });

  it('admin-only gate compares the profile case-insensitively', () => {
    expect(passesGate(gates.admin, admin)).toBe(true);
    expect(passesGate(gates.admin, agent)).toBe(false);
    expect(passesGate(gates.admin, sessionUser({ profile: 'ADMIN' as 'admin' }))).toBe(true);
  });

  it('super-only gate needs the super flag, not the admin profile', () => {
    expect(passesGate(gates.super, admin)).toBe(false);
    expect(passesGate(gates.super, sessionUser({ profile: 'user', super: true }))).toBe(true);
  });

  it('plan gate: a disabled flag denies, a missing flag or plan allows', () => {
    expect(passesGate(gates.plan('useKanban'), sessionUser({}, { plan: plan({ useKanban: false }) }))).toBe(false);
    expect(passesGate(gates.plan('useKanban'), sessionUser({}, { plan: plan({ useKanban: true }) }))).toBe(true);
    const { useKanban: _omitted, ...withoutFlag } = plan();
    expect(passesGate(gates.plan('useKanban'), sessionUser({}, { plan: withoutFlag as never }))).toBe(true);
    expect(passesGate(gates.plan('useKanban'), sessionUser({}, { plan: null }))).toBe(true);
  });

  it('campaigns gate: plan useCampaigns or the cshow storage flag', () => {
    const noCampaigns = sessionUser({}, { plan: plan({ useCampaigns: false }) });
    expect(passesGate(gates.campaigns, noCampaigns)).toBe(false);
    localStorage.setItem(STORAGE.cshow, '');
    expect(passesGate(gates.campaigns, noCampaigns)).toBe(true);
  });
});

describe('routes table', () => {
  it('holds every private route of the spec with its gate', () => {
    const gateOf = (path: string) => routeOf(path)?.gate;
    expect(gateOf('/')).toEqual(gates.admin);
    expect(gateOf('/tickets')).toEqual(gates.private);
    expect(gateOf('/tickets/0b6f9c1e-8d1f-4a55-9c56-2d0f0d7c1a10')).toEqual(gates.private);
    expect(gateOf('/kanban')).toEqual(gates.plan('useKanban'));
    expect(gateOf('/schedules')).toEqual(gates.plan('useSchedules'));
    expect(gateOf('/chats')).toEqual(gates.plan('useInternalChat'));
    expect(gateOf('/chats/abc')).toEqual(gates.plan('useInternalChat'));
    expect(gateOf('/prompts')).toEqual(gates.plan('useOpenAi'));
    expect(gateOf('/queue-integration')).toEqual(gates.plan('useIntegrations'));
    expect(gateOf('/messages-api')).toEqual(gates.plan('useExternalApi'));
    expect(gateOf('/announcements')).toEqual(gates.super);
    for (const path of [
      '/campaigns',
      '/contact-lists',
      '/contact-lists/3/contacts',
      '/campaign/4/report',
      '/campaigns-config',
    ]) {
      expect(gateOf(path), path).toEqual(gates.campaigns);
    }
    for (const path of [
      '/quick-messages',
      '/todolist',
      '/contacts',
      '/tags',
      '/helps',
      '/connections',
      '/queues',
      '/users',
      '/financeiro',
      '/settings',
      '/subscription',
      '/files',
    ]) {
      expect(gateOf(path), path).toEqual(gates.private);
    }
    expect(gateOf('/sandbox')).toEqual(gates.admin);
    expect(appRoutes).toHaveLength(27);
  });
});
