import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import * as XLSX from '@e965/xlsx';
import { type Api, api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectText, login, waitForPath } from '../support/ui';

const TEST = { timeout: 60_000 };

/** The agent of the schedule journey (the queue of the sandbox connection). */
const AGENT = { name: 'Lívia Atendente', email: 'livia.atendente@balcao.test', password: 'livia-secret' };
/**
 * A second admin who only plays the contacts' phones through the API. A login ends the user's
 * other sessions, so the admin in the browser of one journey cannot also be the phone of the other.
 */
const PHONE_OPERATOR = { name: 'Otávio Operador', email: 'otavio.operador@balcao.test', password: 'otavio-secret' };

/**
 * The server refuses a schedule less than a minute ahead (DOMAIN §7) and sends it from its
 * pg-boss job (startAfter = sendAt, polled every 2 s). Nothing in the product makes a schedule
 * due sooner (PUT /schedules/:id applies the same minute), so the journey waits for it. The 5 s
 * over the minute cover the time between reading the clock and the server receiving the form.
 */
const SCHEDULE_LEAD_MS = 65_000;
/** The wait above plus the journey around it. */
const SCHEDULE_TEST = { timeout: SCHEDULE_LEAD_MS + 60_000 };

/** What the API answers, as far as these tests read it. */
interface TicketRow {
  id: number;
  uuid: string;
  status: 'open' | 'pending' | 'closed';
  contact: { id: number; number: string; name: string };
}
interface ScheduleRow {
  id: number;
  body: string;
  status: string;
  contact: { id: number; name: string };
}
interface MessageRow {
  id: number;
  body: string;
  fromMe: boolean;
}

/** The spreadsheet as an office user makes it: accented headers, a number typed as a number. */
const GOOD_ROWS = [
  { name: 'Ana Souza', cell: '(11) 98765-4321', number: '5511987654321', email: 'ana.souza@exemplo.com.br' },
  // An 11-digit number cell (area code + number): the import adds Brazil's 55.
  { name: 'Bruno Lima', cell: 21912345678, number: '5521912345678', email: 'bruno.lima@exemplo.com.br' },
  { name: 'Célia Prado', cell: '+55 31 99876-5432', number: '5531998765432', email: '' },
];
const BAD_ROW = { name: 'Número Curto', cell: '12345', email: 'curto@exemplo.com.br' };

function contactsXlsx(): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet([
    ['Nome', 'Número', 'E-mail', 'Cidade'],
    ...GOOD_ROWS.map((r) => [r.name, r.cell, r.email, 'São Paulo']),
    [BAD_ROW.name, BAD_ROW.cell, BAD_ROW.email, 'Campinas'],
  ]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

// The two journeys run side by side: the schedule one spends most of its time waiting for the
// minute the server requires, and the contact-list one fits in that wait. They share the product
// but not a user in the browser (admin vs agent) nor a contact.
describe('outreach: contact lists from a spreadsheet, schedules from a ticket', { concurrency: 2 }, () => {
  const setup = { whatsappId: 0, phoneApi: undefined as Api | undefined };
  /** Where the test writes its spreadsheet. */
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'balcao-e2e-outreach-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  const suite = productSuite(async (started) => {
    // This API session ends when the admin logs in in the browser; it is only used here.
    const admin = api(started, await apiLogin(started, ADMIN));
    const queue = await admin.post<{ id: number }>('/queue', { name: 'Relacionamento', color: '#1565C0' });
    await admin.post('/users', { ...AGENT, profile: 'user', queueIds: [queue.id] });
    await admin.post('/users', { ...PHONE_OPERATOR, profile: 'admin', queueIds: [] });
    setup.whatsappId = await connectedSandbox(admin, 'Sandbox Outreach', [queue.id]);
    setup.phoneApi = api(started, await apiLogin(started, PHONE_OPERATOR));
  });

  it('an .xlsx imported into a contact list: the result, the rejected row, the items checked on WhatsApp', TEST, () =>
    suite.page('outreach-contact-list', async (p) => {
      const file = path.join(tmp, 'contatos.xlsx');
      writeFileSync(file, contactsXlsx());
      await login(p, suite.web, ADMIN);

      // A new list, from the campaigns menu.
      await p.getByTestId('menu-item-campaigns').click();
      await p.getByTestId('menu-item-contact-lists').click();
      await waitForPath(p, '/contact-lists');
      await p.getByTestId('contact-lists-add').click();
      await p.getByTestId('contact-list-name').fill('Clientes da feira');
      await p.getByTestId('contact-list-modal-submit').click();
      await p.getByTestId('contact-list-modal').waitFor({ state: 'hidden' });
      const row = p.getByTestId('contact-lists-list').locator('tr', { hasText: 'Clientes da feira' });
      await row.click();
      await p.waitForFunction(() => /^\/contact-lists\/\d+\/contacts$/.test(window.location.pathname));
      const listId = Number(new URL(p.url()).pathname.split('/')[2]);
      await expectText(p.getByTestId('contact-list-title'), 'Clientes da feira');
      await expectText(p.getByTestId('contact-list-items-count'), '0 contatos');

      // The import runs in the background; its end is announced with the counts.
      await p.getByTestId('contact-import-file').setInputFiles(file);
      await p.getByText('Importação concluída: 3 importados, 1 rejeitados.').waitFor();
      await expectText(p.getByTestId('contact-import-rejected'), 'Baixar 1 linhas rejeitadas');
      await eventually(async () => assert.equal(await p.getByTestId('contact-import').isEnabled(), true));

      // The rejected row comes back as a CSV with its reason.
      const [download] = await Promise.all([
        p.waitForEvent('download'),
        p.getByTestId('contact-import-rejected').click(),
      ]);
      const rejected = readFileSync(await download.path(), 'utf8');
      assert.match(rejected, /motivo/);
      assert.match(rejected, new RegExp(`${BAD_ROW.name}.*${BAD_ROW.cell}.*Número inválido`));
      assert.doesNotMatch(rejected, /Ana Souza|Bruno Lima|Célia Prado/);

      // The good rows are the list's items, with their numbers normalised.
      await expectText(p.getByTestId('contact-list-items-count'), '3 contatos');
      const table = p.getByTestId('contact-list-items-list');
      for (const good of GOOD_ROWS) {
        const item = table.locator('tr', { hasText: good.name });
        await item.getByRole('cell', { name: good.number, exact: true }).waitFor();
        if (good.email) await item.getByRole('cell', { name: good.email, exact: true }).waitFor();
        // The sandbox connection is connected: the paced check marks the number valid, live.
        await item.getByRole('img', { name: 'WhatsApp válido' }).waitFor();
      }
      assert.equal(await table.getByText(BAD_ROW.name).count(), 0);

      // Back on the lists: the counts of the check.
      await p.getByTestId('contact-list-items-back').click();
      await waitForPath(p, '/contact-lists');
      await expectText(p.getByTestId(`contact-list-contacts-${listId}`), '3');
      const checks = p.getByTestId(`contact-list-checks-${listId}`);
      await checks.getByText('3 válidos', { exact: true }).waitFor();
      await checks.getByText('0 inválidos', { exact: true }).waitFor();
      await checks.getByText('0 não verificados', { exact: true }).waitFor();
    }),
  );

  it('a message scheduled from a ticket is sent when due: Enviada, in the chat and on the phone', SCHEDULE_TEST, () =>
    suite.page('outreach-schedule', async (p) => {
      assert.ok(suite.product && setup.phoneApi);
      const contact = { number: '5511944440001', name: 'Marina Cliente' };
      const body = 'Olá Marina, passando para lembrar do seu retorno amanhã às 10h.';
      const phone = sandboxPhone(setup.phoneApi, setup.whatsappId);
      // The contact writes (while the agent logs in): a pending ticket in the agent's queue.
      await phone.inbound({ ...contact, body: 'Oi, vocês podem me lembrar do retorno?' });
      const [ticket] = await Promise.all([
        until(`a ticket of ${contact.number}`, async () => {
          const { tickets } = await (setup.phoneApi as Api).get<{ tickets: TicketRow[] }>(
            `/tickets?showAll=true&searchParam=${contact.number}`,
          );
          return tickets.find((t) => t.contact.number === contact.number);
        }),
        login(p, suite.web, AGENT),
      ]);
      const agent = await pageApi(suite.product, p);

      // The agent accepts it from the pending tab and opens it.
      await p.getByTestId('tab-pending').click();
      await p.getByTestId(`ticket-item-${ticket.id}`).getByTestId('accept-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      await expectText(p.getByTestId('ticket-chat').getByTestId('ticket-contact-name'), contact.name);

      // Ticket options → Agendar: the contact is the ticket's; a body and a time a minute ahead.
      await p.getByTestId('ticket-options-button').click();
      await p.getByTestId('schedule-button').click();
      const modal = p.getByTestId('schedule-modal');
      await modal.waitFor();
      assert.equal(await p.getByTestId('schedule-contact').inputValue(), contact.name);
      await p.getByTestId('schedule-body').fill(body);
      // The datetime-local value in the browser's wall clock, to the second (a value with ":00"
      // seconds would be normalised away by the input, so those are skipped).
      const sendAt = await p.evaluate((lead) => {
        const d = new Date(Math.floor((Date.now() + lead) / 1000) * 1000);
        if (d.getSeconds() === 0) d.setSeconds(1);
        const [mo, da, h, mi, s] = [d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()].map(
          (n) => String(n).padStart(2, '0'),
        );
        return { value: `${d.getFullYear()}-${mo}-${da}T${h}:${mi}:${s}`, at: d.getTime() };
      }, SCHEDULE_LEAD_MS);
      await p.getByTestId('schedule-send-at').fill(sendAt.value);
      await p.getByTestId('schedule-modal-submit').click();
      await p.getByText('Agendamento salvo com sucesso.').waitFor();
      await modal.waitFor({ state: 'hidden' });

      const schedule = await until('the schedule', async () => {
        const { schedules } = await agent.get<{ schedules: ScheduleRow[] }>(
          `/schedules?contactId=${ticket.contact.id}`,
        );
        return schedules.find((s) => s.body === body);
      });

      // On /schedules it waits as Pendente, then turns Enviada live once the minute has passed.
      await p.getByTestId('menu-item-schedules').click();
      await waitForPath(p, '/schedules');
      await expectText(p.getByTestId(`schedule-contact-${schedule.id}`), contact.name);
      const status = p.getByTestId(`schedule-status-${schedule.id}`);
      await expectText(status, 'Pendente');
      await eventually(
        async () => assert.equal(((await status.textContent()) ?? '').trim(), 'Enviada'),
        Math.max(0, sendAt.at - Date.now()) + 20_000,
      );

      // The contact's phone got it, once; the ticket's chat shows it as sent by the agent.
      await phone.received(contact.number, 'the scheduled message', (m) => m.body.includes(body));
      const copies = (await phone.outbound(contact.number)).filter((m) => m.body.includes(body));
      assert.equal(copies.length, 1, 'the schedule is sent exactly once');
      const sent = await until('the scheduled message in the ticket', async () =>
        (await agent.get<{ messages: MessageRow[] }>(`/messages/${ticket.id}`)).messages.find(
          (m) => m.fromMe && m.body.includes(body),
        ),
      );
      await p.getByTestId('menu-item-tickets').click();
      await waitForPath(p, '/tickets');
      await p.getByTestId('tab-open').click();
      await p.getByTestId(`ticket-item-${ticket.id}`).click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      await p.getByTestId(`message-${sent.id}`).getByText(body, { exact: false }).waitFor();
    }),
  );
});
