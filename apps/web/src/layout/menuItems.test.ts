import { STORAGE } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import { plan, sessionUser } from '../test/fixtures';
import { adminMenu, isGroup, type MenuEntry, serviceMenu, showsAdminSection, visibleEntries } from './menuItems';

function keys(entries: MenuEntry[]): string[] {
  return entries.flatMap((e) => (isGroup(e) ? [e.key, ...e.children.map((c) => c.key)] : [e.key]));
}

describe('drawer menu', () => {
  it('shows the admin section to admins only', () => {
    expect(showsAdminSection(sessionUser({ profile: 'admin' }))).toBe(true);
    expect(showsAdminSection(sessionUser({ profile: 'user' }))).toBe(false);
  });

  it('shows every service item when the plan allows everything', () => {
    expect(keys(visibleEntries(serviceMenu, sessionUser()))).toEqual([
      'tickets',
      'quick-messages',
      'kanban',
      'todolist',
      'contacts',
      'schedules',
      'tags',
      'chats',
      'helps',
    ]);
  });

  it('hides the items of plan-disabled modules', () => {
    const user = sessionUser(
      {},
      {
        plan: plan({
          useKanban: false,
          useSchedules: false,
          useInternalChat: false,
          useOpenAi: false,
          useIntegrations: false,
          useExternalApi: false,
          useCampaigns: false,
        }),
      },
    );
    const visible = keys([...visibleEntries(serviceMenu, user), ...visibleEntries(adminMenu, user)]);
    for (const hidden of [
      'kanban',
      'schedules',
      'chats',
      'prompts',
      'queue-integration',
      'messages-api',
      'campaigns',
    ]) {
      expect(visible).not.toContain(hidden);
    }
    expect(visible).toContain('users');
  });

  it('shows the campaigns submenu through the cshow flag and announcements to super users', () => {
    const user = sessionUser({ super: true }, { plan: plan({ useCampaigns: false }) });
    expect(keys(visibleEntries(adminMenu, user))).not.toContain('campaigns');
    localStorage.setItem(STORAGE.cshow, 'true');
    expect(keys(visibleEntries(adminMenu, user))).toEqual([
      'dashboard',
      'campaigns',
      'campaigns-list',
      'contact-lists',
      'campaigns-config',
      'announcements',
      'prompts',
      'queue-integration',
      'connections',
      'queues',
      'users',
      'messages-api',
      'financeiro',
      'settings',
      'files',
      'sandbox',
    ]);
  });

  it('hides announcements from admins who are not super users', () => {
    expect(keys(visibleEntries(adminMenu, sessionUser()))).not.toContain('announcements');
  });
});
