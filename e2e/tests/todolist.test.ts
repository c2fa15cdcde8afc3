import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { pageApi } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { expectText, localStorageItem, login, waitForPath } from '../support/ui';

const TEST = { timeout: 90_000 };
const PHONE = { width: 390, height: 844 };
const CLERK = { name: 'Carla Recepção', email: 'carla.recepcao@balcao.test', password: 'carla-password' };
const TASKS = ['Ligar para o fornecedor de papel', 'Conferir o caixa do dia'];

/** The texts of the to-do items on screen, in order. */
function shownTasks(page: Page): Promise<string[]> {
  return page.getByTestId('todo-item-text').allTextContents();
}

async function logout(page: Page): Promise<void> {
  await page.getByTestId('drawer-logout').click();
  await waitForPath(page, '/login');
}

/** Fails unless the element lies wholly inside the phone's viewport (so a tap can reach it). */
async function assertOnScreen(locator: Locator, what: string): Promise<void> {
  await locator.waitFor();
  const box = await locator.boundingBox();
  assert.ok(box, `${what}: not rendered`);
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height,
    `${what}: outside the ${PHONE.width}×${PHONE.height} screen at ${JSON.stringify(box)}`,
  );
}

describe('to-do list: kept in this browser, per user', () => {
  const suite = productSuite();

  it('the admin’s tasks survive a reload; another user on the same browser does not see them', TEST, () =>
    suite.page('todolist-per-user', async (page) => {
      assert.ok(suite.product);
      await login(page, suite.web, ADMIN);
      const admin = await pageApi(suite.product, page);
      const me = await admin.get<{ id: number; companyId: number }>('/auth/me');
      await admin.post('/users', { ...CLERK, profile: 'user', queueIds: [] });

      // The admin adds two tasks: one with Enter, one with the button and another status.
      await page.goto(`${suite.web}/todolist`);
      await page.getByTestId('todo-text').fill('   ');
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('todo-error-dialog').getByRole('dialog');
      await dialog.getByText('Erro').waitFor();
      await dialog.getByText('Não é possível adicionar uma tarefa sem texto.').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      await page.getByTestId('todo-text').fill(TASKS[0] as string);
      await page.keyboard.press('Enter');
      await page.getByTestId('todo-text').fill(TASKS[1] as string);
      await page.getByTestId('todo-status').selectOption('inProgress');
      await page.getByTestId('todo-add').click();
      await expectText(page.getByTestId('todo-count'), '2 tarefas');
      assert.deepEqual(await shownTasks(page), TASKS);

      const stored = JSON.parse((await localStorageItem(page, 'tasks')) ?? '[]') as Record<string, unknown>[];
      assert.deepEqual(
        stored.map(({ text, status, companyId, userId }) => ({ text, status, companyId, userId })),
        [
          { text: TASKS[0], status: 'stopped', companyId: me.companyId, userId: me.id },
          { text: TASKS[1], status: 'inProgress', companyId: me.companyId, userId: me.id },
        ],
      );

      await page.reload();
      await expectText(page.getByTestId('todo-count'), '2 tarefas');
      assert.deepEqual(await shownTasks(page), TASKS);

      // Another user of the same company signs in on the same browser (same localStorage).
      await logout(page);
      await login(page, suite.web, { email: CLERK.email, password: CLERK.password });
      await page.goto(`${suite.web}/todolist`);
      await page.getByTestId('todo-empty').waitFor();
      assert.deepEqual(await shownTasks(page), []);
      await page.getByTestId('todo-text').fill('Repor os folhetos');
      await page.keyboard.press('Enter');
      await expectText(page.getByTestId('todo-count'), '1 tarefa');
      assert.deepEqual(await shownTasks(page), ['Repor os folhetos']);

      // Back as the admin: the two tasks are there, the clerk's is not.
      await logout(page);
      await login(page, suite.web, ADMIN);
      await page.goto(`${suite.web}/todolist`);
      await expectText(page.getByTestId('todo-count'), '2 tarefas');
      assert.deepEqual(await shownTasks(page), TASKS);
      const all = JSON.parse((await localStorageItem(page, 'tasks')) ?? '[]') as unknown[];
      assert.equal(all.length, 3);

      // On a phone the form and each item's controls stay on screen.
      await page.setViewportSize(PHONE);
      await assertOnScreen(page.getByTestId('todo-text'), 'text input');
      await assertOnScreen(page.getByTestId('todo-add'), 'add button');
      const first = page.locator('li', { hasText: TASKS[0] as string });
      await assertOnScreen(first.locator('select'), 'item status');
      await assertOnScreen(first.getByRole('button'), 'item delete');
      await first.locator('select').selectOption('resolved');
      assert.equal(await first.getAttribute('data-status'), 'resolved');
      await first.getByRole('button').click();
      await expectText(page.getByTestId('todo-count'), '1 tarefa');
      assert.deepEqual(await shownTasks(page), [TASKS[1]]);
    }),
  );
});
