import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import {
  backgroundOf,
  eventually,
  expectAbsent,
  expectText,
  localStorageItem,
  login,
  submitLogin,
  waitForPath,
} from '../support/ui';

/** What the first start seeds for the super user (apps/server/src/db/seed.ts). */
const SUPER = { name: 'Admin', company: 'Balcão' };

/** Background colours of the theme (apps/web/src/app/theme.ts): body = background.default, top bar = paper. */
const COLOURS = {
  light: { body: 'rgb(246, 244, 250)', topBar: 'rgb(255, 255, 255)' },
  dark: { body: 'rgb(18, 16, 24)', topBar: 'rgb(28, 25, 36)' },
};

const TEST = { timeout: 60_000 };

describe('foundation: login, shell, theme, language, users, logout', () => {
  const suite = productSuite();

  it('the super user logs in and lands on /tickets with the shell', TEST, () =>
    suite.page('super-user-shell', async (p) => {
      await login(p, suite.web, ADMIN);

      const drawer = p.getByTestId('app-drawer');
      assert.equal(await drawer.getAttribute('data-state'), 'open');
      const paper = await drawer.locator('..').boundingBox();
      assert.equal(Math.round(paper?.width ?? 0), 240, 'drawer is 240 px wide');

      await expectText(p.getByTestId('greeting'), `Olá ${SUPER.name}, boas-vindas a ${SUPER.company}!`);
      await expectText(p.getByTestId('app-version'), 'v1.10.0');
      await expectText(p.getByTestId('user-panel-name'), SUPER.name);
      await expectText(p.getByTestId('user-panel-profile'), 'Administrador');

      const service = p.getByTestId('menu-service');
      await service.getByText('Atendimento', { exact: true }).waitFor();
      const ticketsItem = service.getByTestId('menu-item-tickets');
      assert.match((await ticketsItem.getAttribute('class')) ?? '', /Mui-selected/, 'tickets item is the current page');

      const admin = p.getByTestId('menu-admin');
      await admin.getByText('Administração', { exact: true }).waitFor();
      await admin.getByTestId('menu-item-users').waitFor();
      await admin.getByTestId('menu-item-settings').waitFor();
      await p.getByTestId('drawer-logout').waitFor();
    }),
  );

  it('dark mode persists across a reload', TEST, () =>
    suite.page('dark-mode', async (p) => {
      await login(p, suite.web, ADMIN);
      const toggle = p.getByTestId('theme-toggle');
      assert.equal(await toggle.getAttribute('data-mode'), 'light');
      assert.equal(await backgroundOf(p, 'body'), COLOURS.light.body);
      assert.equal(await backgroundOf(p, '[data-testid="top-bar"]'), COLOURS.light.topBar);

      await toggle.click();
      await eventually(async () => assert.equal(await toggle.getAttribute('data-mode'), 'dark'));
      assert.equal(await localStorageItem(p, 'preferredTheme'), 'dark');
      await eventually(async () => assert.equal(await backgroundOf(p, 'body'), COLOURS.dark.body));

      await p.reload();
      await p.getByTestId('app-drawer').waitFor();
      await waitForPath(p, '/tickets');
      assert.equal(await localStorageItem(p, 'preferredTheme'), 'dark');
      assert.equal(await p.getByTestId('theme-toggle').getAttribute('data-mode'), 'dark');
      assert.equal(await backgroundOf(p, 'body'), COLOURS.dark.body);
      assert.equal(await backgroundOf(p, '[data-testid="top-bar"]'), COLOURS.dark.topBar);

      // and back to light
      await p.getByTestId('theme-toggle').click();
      await eventually(async () => assert.equal(await backgroundOf(p, 'body'), COLOURS.light.body));
      assert.equal(await localStorageItem(p, 'preferredTheme'), 'light');
    }),
  );

  it('switching the language to English relabels the shell and survives a reload', TEST, () =>
    suite.page('language', async (p) => {
      await login(p, suite.web, ADMIN);
      await expectText(p.getByTestId('menu-item-tickets'), 'Atendimentos');

      await p.getByTestId('language-select').click();
      await p.getByTestId('language-option-en').click();
      await expectText(p.getByTestId('menu-item-tickets'), 'Tickets');
      await expectText(p.getByTestId('greeting'), `Hello ${SUPER.name}, welcome to ${SUPER.company}!`);
      await p.getByTestId('menu-admin').getByText('Administration', { exact: true }).waitFor();
      assert.equal(await localStorageItem(p, 'language'), 'en');

      await p.reload();
      await expectText(p.getByTestId('menu-item-tickets'), 'Tickets');
      await expectText(p.getByTestId('drawer-logout'), 'Log out');
      assert.equal(await p.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await localStorageItem(p, 'language'), 'en');
    }),
  );

  it('an admin creates a user in the Users modal; that plain user logs in without the admin section', TEST, () =>
    suite.page('create-user', async (p) => {
      const agent = { name: 'Bruna Agente', email: 'bruna.agente@balcao.test', password: 'bruna-secret' };
      await login(p, suite.web, ADMIN);

      await p.getByTestId('menu-item-users').click();
      await waitForPath(p, '/users');
      const list = p.getByTestId('users-list');
      await list.getByRole('row').filter({ hasText: ADMIN.email }).waitFor();

      await p.getByTestId('users-add').click();
      const modal = p.getByTestId('user-modal');
      await modal.getByText('Adicionar usuário', { exact: true }).waitFor();
      await p.getByTestId('user-name').fill(agent.name);
      await p.getByTestId('user-email').fill(agent.email);
      await p.getByTestId('user-password').fill(agent.password);
      await p.getByTestId('user-profile').getByRole('combobox').click();
      await p.getByTestId('user-profile-option-user').click();
      await expectText(p.getByTestId('user-profile').getByRole('combobox'), 'Usuário');
      await p.getByTestId('user-modal-submit').click();

      await p.getByRole('alert').filter({ hasText: 'Usuário salvo com sucesso!' }).waitFor();
      await expectAbsent(p.getByTestId('user-modal'));
      const row = list.getByRole('row').filter({ hasText: agent.email });
      await row.waitFor();
      await row.getByText(agent.name, { exact: true }).waitFor();
      await row.getByText('Usuário', { exact: true }).waitFor();

      await p.getByTestId('drawer-logout').click();
      await waitForPath(p, '/login');

      await login(p, suite.web, agent);
      await expectText(p.getByTestId('greeting'), `Olá ${agent.name}, boas-vindas a ${SUPER.company}!`);
      await expectText(p.getByTestId('user-panel-profile'), 'Usuário');
      await p.getByTestId('menu-service').getByTestId('menu-item-tickets').waitFor();
      await expectAbsent(p.getByTestId('menu-admin'));
      await expectAbsent(p.getByTestId('menu-item-users'));

      // The dashboard (/) is admin only: a plain user sent there, e.g. from /login, lands on /tickets.
      await p.goto(`${suite.web}/login`);
      await waitForPath(p, '/tickets');
      await p.getByTestId('app-drawer').waitFor();
    }),
  );

  it('"Sair" in the profile menu logs out to /login, and /tickets then redirects to /login', TEST, () =>
    suite.page('logout', async (p) => {
      await login(p, suite.web, ADMIN);
      await p.getByTestId('user-menu').click();
      const logout = p.getByTestId('user-menu-logout');
      await expectText(logout, 'Sair');
      await logout.click();

      await waitForPath(p, '/login');
      await p.getByTestId('login-email').waitFor();
      assert.equal(await localStorageItem(p, 'token'), null);

      await p.goto(`${suite.web}/tickets`);
      await waitForPath(p, '/login');
      await p.getByTestId('login-submit').waitFor();
      await expectAbsent(p.getByTestId('app-drawer'));
    }),
  );

  it('a wrong password shows an error toast and stays on /login', TEST, () =>
    suite.page('bad-password', async (p) => {
      await submitLogin(p, suite.web, { email: ADMIN.email, password: 'not-the-password' });
      await p.getByRole('alert').filter({ hasText: 'Erro de autenticação. Por favor, tente novamente.' }).waitFor();
      await waitForPath(p, '/login');
      await p.getByTestId('login-submit').waitFor();
      assert.equal(await localStorageItem(p, 'token'), null);
      await expectAbsent(p.getByTestId('app-drawer'));
    }),
  );

  it('visiting /login while logged in redirects away from /login', TEST, () =>
    suite.page('login-while-logged-in', async (p) => {
      await login(p, suite.web, ADMIN);
      await p.goto(`${suite.web}/login`);
      // Spec §2: a public route visited while authenticated goes to / (the admin's dashboard).
      await waitForPath(p, '/');
      await p.getByTestId('app-drawer').waitFor();
      await expectText(p.getByTestId('page-title'), 'Dashboard');
      await expectAbsent(p.getByTestId('login-submit'));
    }),
  );
});
