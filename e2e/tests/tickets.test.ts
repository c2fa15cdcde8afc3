import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { type Api, api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { countSounds, eventually, expectAbsent, expectText, login, soundsPlayed, waitForPath } from '../support/ui';

const TEST = { timeout: 60_000 };

/** The plain user of the transfer scenario: queue A only. */
const AGENT = { name: 'Diego Atendente', email: 'diego.atendente@balcao.test', password: 'diego-secret' };

/** What the API answers, as far as these tests read it. */
interface TicketRow {
  id: number;
  uuid: string;
  status: 'open' | 'pending' | 'closed';
  userId: number | null;
  queueId: number | null;
  contact: { id: number; number: string; name: string };
}
interface MessageRow {
  id: number;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaName: string | null;
  ack: number;
}

/** A valid RGB PNG of `width` × `height` pixels of one colour. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('tickets: live list, chat with the sandbox phone, transfer, media', () => {
  /** Set up once through the API as the admin: two queues, the agent (queue A) and a connected sandbox serving A. */
  const setup = { queueA: 0, queueB: 0, whatsappId: 0 };

  const suite = productSuite(async (started) => {
    // This API session ends when the admin logs in in the browser; it is only used here.
    const admin = api(started, await apiLogin(started, ADMIN));
    const queueA = await admin.post<{ id: number }>('/queue', { name: 'Suporte', color: '#2E7D32' });
    const queueB = await admin.post<{ id: number }>('/queue', { name: 'Financeiro', color: '#C62828' });
    await admin.post('/users', { ...AGENT, profile: 'user', queueIds: [queueA.id] });
    setup.whatsappId = await connectedSandbox(admin, 'Sandbox E2E', [queueA.id]);
    setup.queueA = queueA.id;
    setup.queueB = queueB.id;
  });

  /** Logs in as the admin on /tickets and returns the API as that same session (for the sandbox phone). */
  async function adminOn(p: Page): Promise<Api> {
    assert.ok(suite.product);
    await login(p, suite.web, ADMIN);
    return pageApi(suite.product, p);
  }

  /** The contact's ticket on the sandbox connection, as the API lists it. */
  async function ticketOf(as: Api, number: string): Promise<TicketRow> {
    return until(`a ticket of ${number}`, async () => {
      const { tickets } = await as.get<{ tickets: TicketRow[] }>(`/tickets?showAll=true&searchParam=${number}`);
      return tickets.find((t) => t.contact.number === number);
    });
  }

  async function messagesOf(as: Api, ticketId: number): Promise<MessageRow[]> {
    return (await as.get<{ messages: MessageRow[] }>(`/messages/${ticketId}`)).messages;
  }

  it('core loop: contact writes, admin accepts, replies, sees acks, resolves; a new message reopens', TEST, () =>
    suite.page('core-loop', async (p) => {
      const contact = { number: '5511988880001', name: 'Carla Contato' };
      await countSounds(p);
      const admin = await adminOn(p);
      const phone = sandboxPhone(admin, setup.whatsappId);

      await p.getByTestId('tab-pending').click();
      await p.getByTestId('ticket-list').waitFor();
      const soundsBefore = await soundsPlayed(p);

      await phone.inbound({ ...contact, body: 'Olá, preciso de ajuda com meu pedido' });
      const ticket = await ticketOf(admin, contact.number);
      assert.equal(ticket.status, 'pending');

      // Live: no reload.
      const item = p.getByTestId(`ticket-item-${ticket.id}`);
      await item.waitFor();
      assert.equal(await item.getAttribute('data-status'), 'pending');
      await item.getByText(contact.name, { exact: true }).waitFor();
      await expectText(item.getByTestId('ticket-unread'), '1');
      await eventually(async () =>
        assert.ok((await soundsPlayed(p)) > soundsBefore, 'a notification sound was played'),
      );

      await item.getByTestId('accept-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      const chat = p.getByTestId('ticket-chat');
      await eventually(async () => assert.equal(await chat.getAttribute('data-status'), 'open'));
      await expectText(chat.getByTestId('ticket-contact-name'), contact.name);

      const reply = 'Oi Carla, já estou verificando o seu pedido.';
      const input = p.getByTestId('message-composer').getByTestId('message-input');
      await input.fill(reply);
      await input.press('Enter');
      await eventually(async () => assert.equal(await input.inputValue(), ''));

      // The contact's phone receives it (the sign option may put the agent's name before it).
      const received = await phone.received(contact.number, 'the reply', (m) => m.body.includes(reply));
      const sent = await until('the reply in the ticket', async () =>
        (await messagesOf(admin, ticket.id)).find((m) => m.fromMe && m.body.includes(reply)),
      );
      const bubble = p.getByTestId(`message-${sent.id}`);
      await bubble.getByText(reply, { exact: false }).waitFor();
      // The server marks it sent (ack 1) once the phone has it; the bubble must follow live.
      await until('the server to mark the reply sent', async () =>
        (await messagesOf(admin, ticket.id)).some((m) => m.id === sent.id && m.ack === 1),
      );
      const ack = p.getByTestId(`ack-${sent.id}`);
      await eventually(async () => assert.equal(await ack.getAttribute('data-ack'), '1', 'the ack shows sent'));

      await phone.ack(received.providerId, 3);
      await eventually(async () => assert.equal(await ack.getAttribute('data-ack'), '3', 'the ack shows read'));

      await p.getByTestId('ticket-header').getByTestId('resolve-button').click();
      await waitForPath(p, '/tickets');
      await expectAbsent(p.getByTestId('ticket-chat'));

      // The contact writes again: the closed ticket comes back as pending, unread.
      await p.getByTestId('tab-pending').click();
      await phone.inbound({ ...contact, body: 'Mais uma dúvida' });
      await eventually(async () => assert.equal(await item.getAttribute('data-status'), 'pending'));
      await expectText(item.getByTestId('ticket-unread'), '1');
      await item.getByTestId('accept-button').waitFor();
    }),
  );

  it('transfer to a queue the user lacks: the ticket leaves the list and its URL is refused', TEST, () =>
    suite.page('transfer-away', async (p) => {
      assert.ok(suite.product);
      await login(p, suite.web, AGENT);
      const agent = await pageApi(suite.product, p);
      const contact = await agent.post<{ id: number }>('/contacts', {
        name: 'Eduardo Cliente',
        number: '5511977770002',
      });
      const ticket = await agent.post<TicketRow>('/tickets', {
        contactId: contact.id,
        queueId: setup.queueA,
        status: 'open',
      });
      assert.equal(ticket.status, 'open');
      assert.notEqual(ticket.userId, null);

      // The ticket shows live in the agent's own (assigned) tickets; it opens on click.
      const item = p.getByTestId(`ticket-item-${ticket.id}`);
      await item.waitFor();
      await item.click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      await p.getByTestId('ticket-chat').waitFor();

      await p.getByTestId('ticket-options-button').click();
      await p.getByTestId('transfer-button').click();
      const modal = p.getByTestId('transfer-modal');
      await modal.waitFor();
      await p.getByTestId('transfer-queue').getByRole('combobox').click();
      await p.getByTestId(`transfer-queue-${setup.queueB}`).click();
      await p.getByTestId('transfer-submit').click();

      await waitForPath(p, '/tickets');
      await expectAbsent(p.getByTestId('transfer-modal'));
      await expectAbsent(item);
      await p.getByTestId('tab-pending').click();
      await p.getByTestId('ticket-list').waitFor();
      await expectAbsent(item);

      await p.goto(`${suite.web}/tickets/${ticket.uuid}`);
      await p.getByRole('alert').filter({ hasText: 'Acesso não permitido' }).waitFor();
      await waitForPath(p, '/tickets');
      await expectAbsent(p.getByTestId('ticket-chat'));

      // A link to a ticket that does not exist: the not-found text, then back to the list.
      await p.goto(`${suite.web}/tickets/00000000-0000-4000-8000-00000000dead`);
      await p.getByRole('alert').filter({ hasText: 'Nenhum atendimento encontrado com este ID.' }).waitFor();
      await waitForPath(p, '/tickets');
    }),
  );

  it('media both ways: the contact’s image shows in the chat; the agent’s attachment reaches the phone', TEST, () =>
    suite.page('media', async (p) => {
      const contact = { number: '5511966660003', name: 'Fernanda Foto' };
      const admin = await adminOn(p);
      const phone = sandboxPhone(admin, setup.whatsappId);

      const photo = png(3, 2, [200, 30, 30]);
      await phone.inbound({
        ...contact,
        media: { fileName: 'foto.png', mimetype: 'image/png', base64: photo.toString('base64') },
      });
      const ticket = await ticketOf(admin, contact.number);
      await p.getByTestId('tab-pending').click();
      const item = p.getByTestId(`ticket-item-${ticket.id}`);
      await item.getByTestId('accept-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);

      const image = await until('the image message', async () =>
        (await messagesOf(admin, ticket.id)).find((m) => !m.fromMe && m.mediaType === 'image'),
      );
      // Fetched with the token into an object URL, and decoded: the PNG is 3 pixels wide.
      const media = p.getByTestId(`media-${image.id}`);
      await eventually(async () => {
        const width = await media.evaluate((el) => {
          const img = el instanceof HTMLImageElement ? el : el.querySelector('img');
          return img?.complete ? img.naturalWidth : 0;
        });
        assert.equal(width, 3, 'the image is shown');
      });

      await p.getByTestId('attach-input').setInputFiles({
        name: 'recibo.png',
        mimeType: 'image/png',
        buffer: png(4, 4, [30, 30, 200]),
      });
      await p.getByTestId('attachments').getByText('recibo.png').waitFor();
      await p.getByTestId('send-button').click();
      await expectAbsent(p.getByTestId('attachments'));

      const received = await phone.received(
        contact.number,
        'the attachment',
        (m) => m.media?.fileName === 'recibo.png',
      );
      assert.equal(received.media?.mimetype, 'image/png');
      const sent = await until('the attachment in the ticket', async () =>
        (await messagesOf(admin, ticket.id)).find((m) => m.fromMe && m.mediaType === 'image'),
      );
      await eventually(async () => {
        const width = await p
          .getByTestId(`media-${sent.id}`)
          .evaluate((el) => (el instanceof HTMLImageElement && el.complete ? el.naturalWidth : 0));
        assert.equal(width, 4, 'the sent image is shown');
      });
    }),
  );

  it('the Sandbox page plays the phone: its message is a pending ticket, the reply comes back', TEST, () =>
    suite.page('sandbox-page', async (p) => {
      const contact = { number: '5511955550004', name: 'Gustavo Sandbox' };
      const admin = await adminOn(p);

      await p.getByTestId('menu-item-sandbox').click();
      await waitForPath(p, '/sandbox');
      await p.getByTestId('sandbox-connection-select').selectOption(String(setup.whatsappId));
      assert.equal(await p.getByTestId('sandbox-connection-status').getAttribute('data-status'), 'CONNECTED');
      await p.getByTestId('sandbox-number').fill(contact.number);
      await p.getByTestId('sandbox-name').fill(contact.name);
      await p.getByTestId('sandbox-body').fill('Bom dia, vim pelo sandbox');
      await p.getByTestId('sandbox-send').click();
      await p.getByTestId('sandbox-outbound-list').getByText('Bom dia, vim pelo sandbox').waitFor();

      const ticket = await ticketOf(admin, contact.number);
      await p.getByTestId('menu-item-tickets').click();
      await waitForPath(p, '/tickets');
      await p.getByTestId('tab-pending').click();
      const item = p.getByTestId(`ticket-item-${ticket.id}`);
      await item.getByText(contact.name, { exact: true }).waitFor();
      await expectText(item.getByTestId('ticket-unread'), '1');

      await item.getByTestId('accept-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      const input = p.getByTestId('message-input');
      await input.fill('Bom dia, Gustavo!');
      await p.getByTestId('send-button').click();
      const received = await sandboxPhone(admin, setup.whatsappId).received(contact.number, 'the reply', (m) =>
        m.body.includes('Bom dia, Gustavo!'),
      );

      // Back on the phone: the reply is there and can be marked read.
      await p.getByTestId('menu-item-sandbox').click();
      await waitForPath(p, '/sandbox');
      await p.getByTestId('sandbox-number').fill(contact.number);
      const bubble = p.getByTestId(`sandbox-out-${received.id}`);
      await bubble.getByText('Bom dia, Gustavo!', { exact: false }).waitFor();
      await p.getByTestId(`sandbox-ack-read-${received.id}`).click();
      await until('the reply to be read on the phone', async () =>
        (await sandboxPhone(admin, setup.whatsappId).outbound(contact.number)).some(
          (m) => m.id === received.id && m.ack === 3,
        ),
      );
    }),
  );
});
