import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectText, login, waitForPath } from '../support/ui';

const TEST = { timeout: 90_000 };

const PLAN = { name: 'Essencial Sem Kanban', users: '5', connections: '2', queues: '3', value: '99,90' };
const COMPANY = {
  name: 'Padaria Pão Quente',
  email: 'dono@paoquente.test',
  adminName: 'Rosa Padeira',
  password: 'rosa-secret',
};
const CONTACT = { number: '5511933330001', name: 'Cliente da Padaria' };
const VIDEO_ID = 'dQw4w9WgXcQ';

async function selectOption(page: Page, input: string, option: string): Promise<void> {
  // MUI selects: the visible combobox sits beside the hidden input that carries the test id.
  await page.getByTestId(input).locator('xpath=..').getByRole('combobox').click();
  await page.getByTestId(option).click();
}

describe('administration: plans, companies, dashboard, plan flags, announcements, help videos', () => {
  const suite = productSuite();

  it('the super user sets up a company on a plan; its admin sees the dashboard and only the plan’s modules', TEST, () =>
    suite.page('administration-super', async (superPage) => {
      assert.ok(suite.product);
      const product = suite.product;
      await login(superPage, suite.web, ADMIN);

      // A plan without kanban nor schedules.
      await superPage.goto(`${suite.web}/settings`);
      await superPage.getByTestId('settings-tab-plans').click();
      await superPage.getByTestId('plan-name').fill(PLAN.name);
      for (const limit of ['users', 'connections', 'queues'] as const)
        await superPage.getByTestId(`plan-${limit}`).fill(PLAN[limit]);
      await superPage.getByTestId('plan-value').fill(PLAN.value);
      await superPage.getByTestId('plan-useKanban').uncheck();
      await superPage.getByTestId('plan-useSchedules').uncheck();
      await superPage.getByTestId('plan-submit').click();
      const planRow = superPage.getByTestId('plans-list').locator('tr', { hasText: PLAN.name });
      await planRow.waitFor();
      const superApi = await pageApi(product, superPage);
      const plan = await until('the new plan', async () =>
        (await superApi.get<{ id: number; name: string; useKanban: boolean }[]>('/plans/all')).find(
          (p) => p.name === PLAN.name,
        ),
      );
      assert.equal(plan.useKanban, false);

      // A company on that plan, with its first admin named.
      await superPage.getByTestId('settings-tab-companies').click();
      await superPage.getByTestId('company-name').fill(COMPANY.name);
      await superPage.getByTestId('company-email').fill(COMPANY.email);
      await selectOption(superPage, 'company-plan', `company-plan-option-${plan.id}`);
      await superPage.getByTestId('company-admin-name').fill(COMPANY.adminName);
      await superPage.getByTestId('company-password').fill(COMPANY.password);
      await superPage.getByTestId('company-submit').click();
      await superPage.getByTestId('companies-list').locator('tr', { hasText: COMPANY.name }).waitFor();

      // A help video, by its YouTube link.
      await superPage.getByTestId('settings-tab-helps').click();
      await superPage.getByTestId('help-title').fill('Primeiros passos');
      await superPage.getByTestId('help-video').fill(`https://www.youtube.com/watch?v=${VIDEO_ID}`);
      await superPage.getByTestId('help-submit').click();
      await superPage.getByTestId('helps-list').locator('tr', { hasText: 'Primeiros passos' }).waitFor();

      await suite.page('administration-admin', async (adminPage) => {
        await login(adminPage, suite.web, { email: COMPANY.email, password: COMPANY.password });

        // A conversation accepted and closed moves the dashboard's cards without a reload.
        await adminPage.goto(`${suite.web}/`);
        await adminPage.getByTestId('card-finished-value').waitFor();
        await expectText(adminPage.getByTestId('card-finished-value'), '0');
        const admin = await pageApi(product, adminPage);
        const me = await admin.get<{ id: number; name: string }>('/auth/me');
        assert.equal(me.name, COMPANY.adminName);
        const whatsappId = await connectedSandbox(admin, 'Balcão da Padaria', []);
        await sandboxPhone(admin, whatsappId).inbound({ ...CONTACT, body: 'Tem pão de queijo?' });
        const ticket = await until('the contact’s ticket', async () => {
          const { tickets } = await admin.get<{ tickets: { id: number; contact: { number: string } }[] }>(
            `/tickets?showAll=true&searchParam=${CONTACT.number}`,
          );
          return tickets.find((t) => t.contact.number === CONTACT.number);
        });
        await eventually(async () =>
          assert.equal(await adminPage.getByTestId('card-pending-value').textContent(), '1'),
        );
        await admin.put(`/tickets/${ticket.id}`, { status: 'open', userId: me.id });
        await admin.post(`/messages/${ticket.id}`, { body: 'Tem sim!' });
        await admin.put(`/tickets/${ticket.id}`, { status: 'closed', userId: me.id });
        await eventually(async () =>
          assert.equal(await adminPage.getByTestId('card-finished-value').textContent(), '1'),
        );
        await eventually(async () => assert.equal(await adminPage.getByTestId('card-leads-value').textContent(), '1'));

        // The plan has no kanban: the page refuses and sends the admin home; the API refuses too.
        await adminPage.goto(`${suite.web}/kanban`);
        await adminPage.getByRole('alert').filter({ hasText: 'não possui permissão' }).waitFor();
        await waitForPath(adminPage, '/');
        await assert.rejects(admin.get('/tags/kanban'), /answered 403/);

        // The super user publishes an announcement: it reaches the admin's open page live.
        await superPage.goto(`${suite.web}/announcements`);
        await superPage.getByTestId('announcements-add').click();
        await superPage.getByTestId('announcement-title').fill('Manutenção programada');
        await superPage.getByTestId('announcement-text').fill('Domingo às 02:00 o sistema ficará fora do ar.');
        await superPage.getByTestId('announcement-modal-submit').click();
        await superPage.getByTestId('announcement-modal').waitFor({ state: 'hidden' });

        await expectText(adminPage.getByTestId('announcements-unread'), '1');
        await adminPage.getByTestId('announcements-button').click();
        const list = adminPage.getByTestId('announcements-popover-list');
        await list.getByText('Manutenção programada').waitFor();
        await list.getByText('Domingo às 02:00 o sistema ficará fora do ar.').waitFor();
        await adminPage.keyboard.press('Escape');

        // The help video opens in a modal and Escape closes it.
        await adminPage.goto(`${suite.web}/helps`);
        const card = adminPage.locator('[data-testid^="help-card-"]').first();
        await card.locator('[data-testid^="help-thumbnail-"]').click();
        const player = adminPage.getByTestId('help-video-player');
        await player.waitFor();
        assert.match((await player.getAttribute('src')) ?? '', new RegExp(`youtube-nocookie\\.com/embed/${VIDEO_ID}`));
        await adminPage.keyboard.press('Escape');
        await adminPage.getByTestId('help-video-modal').waitFor({ state: 'hidden' });
      });

      // Nothing of the new company leaked into the platform company's lists.
      const token = await apiLogin(product, ADMIN);
      const { tickets } = await api(product, token).get<{ tickets: unknown[] }>(
        `/tickets?showAll=true&searchParam=${CONTACT.number}`,
      );
      assert.equal(tickets.length, 0);
    }),
  );
});
