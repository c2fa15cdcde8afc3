import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { type Api, api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectAbsent, expectText, login, waitForPath } from '../support/ui';

/** Three (chat) or two (kanban) browsers side by side on a machine shared with CI. */
const TEST = { timeout: 120_000 };

/** B: the admin's colleague in the chat, and the second browser of the board (queue Vendas). */
const BIA = { name: 'Bia Balcão', email: 'bia.balcao@balcao.test', password: 'bia-secret' };
/** C: same company, never a member of the chat. */
const CAIO = { name: 'Caio Caixa', email: 'caio.caixa@balcao.test', password: 'caio-secret' };

const CHAT_TITLE = 'Orçamento da mesa 4';
const FIRST = 'Bia, o cliente da mesa 4 pediu um orçamento até sexta.';
const REPLY = 'Combinado, envio hoje à tarde.';

/** The board's lanes after "Em aberto", in name order (the order `GET /tags/kanban` gives). */
const LANES = ['Negociação', 'Proposta'] as const;
const PLAIN_TAG = 'Cliente VIP';
const CONTACT = { number: '5511977770001', name: 'Rita Quadro' };

interface ChatRow {
  id: number;
  uuid: string;
  title: string;
  users: { userId: number; unreads: number }[];
}
interface TicketRow {
  id: number;
  uuid: string;
  status: string;
  queueId: number | null;
  contact: { number: string };
  tags: { id: number; name: string }[];
}
interface KanbanReply {
  tickets: TicketRow[];
  count: number;
}

/** The top bar's badge shows `count` (MUI hides a zero badge with a class, keeping its old text). */
async function expectBadge(badge: Locator, count: number): Promise<void> {
  await badge.waitFor({ state: 'attached' });
  await eventually(async () => {
    const hidden = ((await badge.getAttribute('class')) ?? '').includes('MuiBadge-invisible');
    if (count === 0) assert.ok(hidden, 'the badge is hidden');
    else {
      assert.ok(!hidden, 'the badge is visible');
      assert.equal((await badge.textContent())?.trim(), String(count));
    }
  });
}

/** The internal-chat button's total (`data-unread`) and its badge agree on `count`. */
async function expectUnreadTotal(page: Page, count: number): Promise<void> {
  await eventually(async () =>
    assert.equal(await page.getByTestId('chats-button').getAttribute('data-unread'), String(count)),
  );
  await expectBadge(page.getByTestId('chats-unread'), count);
}

/** The lane of the board, by "open" or a tag's id. */
function lane(page: Page, key: 'open' | number): Locator {
  return page.getByTestId(`kanban-lane-${key}`);
}

/** The card sits in `key`'s lane and in no other. */
async function expectCardIn(page: Page, ticketId: number, key: 'open' | number, lanes: ('open' | number)[]) {
  await lane(page, key).getByTestId(`kanban-card-${ticketId}`).waitFor();
  for (const other of lanes.filter((k) => k !== key)) {
    await expectAbsent(lane(page, other).getByTestId(`kanban-card-${ticketId}`));
  }
}

/** A lane shows the drop highlight (an outline in its colour) while a card is held over it. */
async function expectHighlighted(target: Locator): Promise<void> {
  await eventually(async () => {
    const width = await target.evaluate((el) => Number.parseFloat(getComputedStyle(el).outlineWidth));
    assert.ok(width > 0, 'the lane is highlighted');
  });
}

/** Drags with the mouse the way a hand does: press, a small move that starts the drag, then across in steps. */
async function dragWithMouse(page: Page, card: Locator, target: Locator): Promise<void> {
  const from = await card.boundingBox();
  const to = await target.boundingBox();
  assert.ok(from && to, 'the card and the lane are on screen');
  const start = { x: from.x + from.width / 2, y: from.y + 20 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 12, start.y + 4, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 12 });
  await expectHighlighted(target);
  await page.mouse.up();
}

describe('workspace: the internal chat and the kanban board, live between browsers', () => {
  const setup = { queue: 0, whatsappId: 0, bia: 0, caio: 0, lanes: [0, 0], plainTag: 0 };

  const suite = productSuite(async (started) => {
    // This API session ends when the admin logs in in a browser; it is only used here.
    const admin = api(started, await apiLogin(started, ADMIN));
    const queue = await admin.post<{ id: number }>('/queue', { name: 'Vendas', color: '#1565C0' });
    setup.queue = queue.id;
    setup.bia = (await admin.post<{ id: number }>('/users', { ...BIA, profile: 'user', queueIds: [queue.id] })).id;
    setup.caio = (await admin.post<{ id: number }>('/users', { ...CAIO, profile: 'user', queueIds: [queue.id] })).id;
    setup.whatsappId = await connectedSandbox(admin, 'Sandbox Quadro', [queue.id]);
    // Two tags the admin turns into lanes, and a plain one.
    for (const [i, name] of LANES.entries()) {
      const tag = await admin.post<{ id: number }>('/tags', { name, color: i ? '#2E7D32' : '#EF6C00', kanban: 0 });
      await admin.put(`/tags/${tag.id}`, { kanban: 1 });
      setup.lanes[i] = tag.id;
    }
    setup.plainTag = (await admin.post<{ id: number }>('/tags', { name: PLAIN_TAG, color: '#6A1B9A', kanban: 0 })).id;
  });

  /** The user's socket is connected (the server counts them online), so live events reach the page. */
  async function online(admin: Api, userId: number): Promise<void> {
    await until(`user ${userId} online`, async () => (await admin.get<{ online: boolean }>(`/users/${userId}`)).online);
  }

  it('a chat between two colleagues: live unread badge, read on open, live reply; a third never sees it', TEST, () =>
    suite.page('workspace-chat-admin', (pa) =>
      suite.page('workspace-chat-bia', (pb) =>
        suite.page('workspace-chat-caio', async (pc) => {
          assert.ok(suite.product);
          await login(pa, suite.web, ADMIN);
          const admin = await pageApi(suite.product, pa);
          const me = await admin.get<{ id: number; name: string }>('/auth/me');
          await login(pb, suite.web, BIA);
          await login(pc, suite.web, CAIO);
          await online(admin, setup.bia);
          await online(admin, setup.caio);
          await expectUnreadTotal(pb, 0);
          await expectUnreadTotal(pc, 0);

          // A starts the chat with B in the new-chat dialog and writes.
          await pa.goto(`${suite.web}/chats`);
          await pa.getByTestId('chat-list-empty').waitFor();
          await pa.getByTestId('chat-new').click();
          const dialog = pa.getByTestId('chat-dialog');
          await dialog.getByText('Nova conversa').waitFor();
          await pa.getByTestId('chat-title').fill(CHAT_TITLE);
          await pa.getByTestId('chat-users').fill('Bia');
          await pa.getByRole('listbox').getByRole('option', { name: BIA.name, exact: true }).click();
          await expectText(dialog.locator('.MuiChip-label'), BIA.name);
          await pa.getByTestId('chat-dialog-save').click();
          await pa.getByText('Conversa salva.').waitFor();
          await dialog.waitFor({ state: 'hidden' });
          const chat = await until('the chat in the API', async () => {
            const { records } = await admin.get<{ records: ChatRow[] }>('/chats');
            return records.find((c) => c.title === CHAT_TITLE);
          });
          await waitForPath(pa, `/chats/${chat.uuid}`);
          await expectText(pa.getByTestId('chat-title-header'), CHAT_TITLE);
          assert.deepEqual(chat.users.map((u) => u.userId).sort(), [me.id, setup.bia].sort());

          await pa.getByTestId('chat-input').fill(FIRST);
          await pa.keyboard.press('Enter');
          await pa.getByTestId('chat-messages').getByText(FIRST).waitFor();
          assert.equal(await pa.getByTestId('chat-input').inputValue(), '');

          // B, on the tickets page, sees it without a reload: the total badge and the chat's own count.
          assert.equal(new URL(pb.url()).pathname, '/tickets');
          await expectUnreadTotal(pb, 1);
          await pb.getByTestId('chats-button').click();
          const item = pb.getByTestId(`chats-popover-item-${chat.id}`);
          await item.getByText(CHAT_TITLE).waitFor();
          await item.getByText(FIRST).waitFor();
          await expectBadge(pb.getByTestId(`chats-popover-unread-${chat.id}`), 1);

          // B opens it from the popover: A's message, signed with A's name; the badge clears.
          await item.click();
          await waitForPath(pb, `/chats/${chat.uuid}`);
          await pb.getByTestId('chats-popover').waitFor({ state: 'hidden' });
          const bConversation = pb.getByTestId('chat-conversation');
          await expectText(bConversation.getByTestId('chat-title-header'), CHAT_TITLE);
          const received = bConversation.getByTestId('chat-messages').locator('[data-testid^="chat-message-"]', {
            hasText: FIRST,
          });
          await received.getByText(me.name, { exact: true }).waitFor();
          await expectUnreadTotal(pb, 0);
          await expectBadge(pb.getByTestId(`chat-unread-${chat.id}`), 0);

          // The read is the server's: a fresh load of another page still shows nothing unread.
          await pb.goto(`${suite.web}/tickets`);
          await pb.getByTestId('app-drawer').waitFor();
          await expectUnreadTotal(pb, 0);
          await pb.getByTestId('chats-button').click();
          await pb.getByTestId(`chats-popover-item-${chat.id}`).getByText(CHAT_TITLE).waitFor();
          await expectBadge(pb.getByTestId(`chats-popover-unread-${chat.id}`), 0);

          // B replies from the chat; A, with the chat open, sees it arrive and nothing stays unread.
          await pb.getByTestId(`chats-popover-item-${chat.id}`).click();
          await waitForPath(pb, `/chats/${chat.uuid}`);
          await pb.getByTestId('chat-messages').getByText(FIRST).waitFor();
          await pb.getByTestId('chat-input').fill(REPLY);
          await pb.getByTestId('chat-send').click();
          await pb.getByTestId('chat-messages').getByText(REPLY).waitFor();
          const reply = pa.getByTestId('chat-messages').locator('[data-testid^="chat-message-"]', { hasText: REPLY });
          await reply.getByText(BIA.name, { exact: true }).waitFor();
          await expectUnreadTotal(pa, 0);
          await expectText(pa.getByTestId(`chat-item-${chat.id}`).locator('.MuiListItemText-secondary'), REPLY);

          // C, signed in the whole time, heard nothing and finds nothing.
          await expectUnreadTotal(pc, 0);
          await pc.getByTestId('chats-button').click();
          await pc.getByTestId('chats-popover-empty').waitFor();
          assert.equal(await pc.getByTestId(`chats-popover-item-${chat.id}`).count(), 0);
          await pc.keyboard.press('Escape');
          await pc.goto(`${suite.web}/chats`);
          await pc.getByTestId('chat-list-empty').waitFor();
          assert.equal(await pc.getByTestId(`chat-item-${chat.id}`).count(), 0);
          // Not even by its link.
          await pc.goto(`${suite.web}/chats/${chat.uuid}`);
          await pc.getByTestId('chat-none').waitFor();
          assert.equal(await pc.getByTestId('chat-conversation').count(), 0);
          assert.equal(await pc.getByText(FIRST).count(), 0);
          const caio = await pageApi(suite.product, pc);
          const { records } = await caio.get<{ records: ChatRow[] }>('/chats');
          assert.deepEqual(records, []);
          await assert.rejects(caio.get(`/chats/${chat.id}`), /answered 404/);
          await assert.rejects(caio.get(`/chats/${chat.id}/messages`), /answered 404/);
        }),
      ),
    ),
  );

  it('kanban: a card dragged with the mouse, then moved with the keyboard, live on a second board', TEST, () =>
    suite.page('workspace-kanban-admin', (p1) =>
      suite.page('workspace-kanban-bia', async (p2) => {
        assert.ok(suite.product);
        const [negotiation, proposal] = setup.lanes;
        const keys: ('open' | number)[] = ['open', negotiation, proposal];
        await login(p1, suite.web, ADMIN);
        const admin = await pageApi(suite.product, p1);
        await login(p2, suite.web, BIA);
        await online(admin, setup.bia);

        // A contact writes: a pending ticket of Vendas, with a plain tag that no lane move may touch.
        await sandboxPhone(admin, setup.whatsappId).inbound({ ...CONTACT, body: 'Vocês fazem entrega no sábado?' });
        const ticket = await until('the contact’s ticket', async () => {
          const { tickets } = await admin.get<{ tickets: TicketRow[] }>(
            `/tickets?showAll=true&searchParam=${CONTACT.number}`,
          );
          return tickets.find((t) => t.contact.number === CONTACT.number);
        });
        assert.equal(ticket.status, 'pending');
        assert.equal(ticket.queueId, setup.queue);
        await admin.put(`/ticket-tags/${ticket.id}/${setup.plainTag}`);

        // Both boards: "Em aberto", then the two lanes in name order; the card waits in "Em aberto".
        for (const p of [p1, p2]) {
          await p.goto(`${suite.web}/kanban`);
          await expectCardIn(p, ticket.id, 'open', keys);
          const titles = await p.getByTestId('kanban-board').getByRole('heading', { level: 2 }).allTextContents();
          assert.deepEqual(titles, ['Em aberto', ...LANES]);
          await expectText(p.getByTestId(`kanban-card-contact-${ticket.id}`), CONTACT.name);
        }
        await expectText(p2.getByTestId(`kanban-lane-count-${proposal}`), '0');

        // Browser 1 drags the card with the mouse from "Em aberto" across Negociação to Proposta.
        await dragWithMouse(p1, lane(p1, 'open').getByTestId(`kanban-card-${ticket.id}`), lane(p1, proposal));
        const added = p1.getByText('Ticket Tag Adicionado com Sucesso!');
        await added.waitFor();
        await expectCardIn(p1, ticket.id, proposal, keys);
        // Browser 2, untouched, follows.
        await expectCardIn(p2, ticket.id, proposal, keys);
        await expectText(p2.getByTestId(`kanban-lane-count-${proposal}`), '1');
        await expectText(p2.getByTestId('kanban-lane-count-open'), '0');
        // The toast goes away by itself.
        await expectAbsent(added);

        // Then with the keyboard: focus the card, Space picks it up, ← one lane, Space drops it.
        const card = lane(p1, proposal).getByTestId(`kanban-card-${ticket.id}`);
        await card.focus();
        await p1.keyboard.press('Space');
        await eventually(async () => assert.equal(await card.getAttribute('aria-pressed'), 'true', 'picked up'));
        await p1.keyboard.press('ArrowLeft');
        await expectHighlighted(lane(p1, negotiation));
        await p1.keyboard.press('Space');
        await p1.getByText('Ticket Tag Removido!').waitFor();
        await p1.getByText('Ticket Tag Adicionado com Sucesso!').waitFor();
        await expectCardIn(p1, ticket.id, negotiation, keys);
        await expectCardIn(p2, ticket.id, negotiation, keys);
        await expectText(p2.getByTestId(`kanban-lane-count-${negotiation}`), '1');
        await expectText(p2.getByTestId(`kanban-lane-count-${proposal}`), '0');

        // The server agrees: one kanban tag, Negociação; the plain tag stayed.
        const inLane = async (query: string) =>
          (await admin.get<KanbanReply>(`/ticket/kanban?${query}`)).tickets.map((t) => t.id).includes(ticket.id);
        assert.equal(await inLane(`tagId=${negotiation}`), true);
        assert.equal(await inLane(`tagId=${proposal}`), false);
        assert.equal(await inLane('lane=open'), false);
        const stored = await admin.get<TicketRow>(`/tickets/${ticket.id}`);
        const tagIds = stored.tags.map((t) => t.id);
        assert.deepEqual(
          tagIds.filter((id) => setup.lanes.includes(id)),
          [negotiation],
          `exactly one kanban tag: ${JSON.stringify(stored.tags)}`,
        );
        assert.ok(tagIds.includes(setup.plainTag), 'the plain tag stays');

        // And a fresh load of browser 2 shows the same board.
        await p2.reload();
        await expectCardIn(p2, ticket.id, negotiation, keys);

        // The board shows the queues chosen in its filter (the tickets page's choice): without
        // Vendas the card leaves the board; with it, it is back.
        const queueOption = async () => {
          await p1.getByTestId('kanban-queue-select').getByRole('combobox').click();
          await p1.getByTestId(`kanban-queue-option-${setup.queue}`).click();
          await p1.keyboard.press('Escape');
          await p1.getByRole('listbox').waitFor({ state: 'detached' });
        };
        await queueOption();
        await expectText(p1.getByTestId('kanban-queue-select').getByRole('combobox'), '0 filas');
        await expectAbsent(p1.getByTestId(`kanban-card-${ticket.id}`));
        await expectText(p1.getByTestId(`kanban-lane-count-${negotiation}`), '0');
        await queueOption();
        await expectText(p1.getByTestId('kanban-queue-select').getByRole('combobox'), '1 fila');
        await expectCardIn(p1, ticket.id, negotiation, keys);
      }),
    ),
  );
});
