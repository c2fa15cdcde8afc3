import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  type Api,
  api,
  apiLogin,
  connectedSandbox,
  type OutboundItem,
  pageApi,
  sandboxPhone,
  until,
} from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, expectText, login, waitForPath } from '../support/ui';

/** The whole journey: four recipients paced 5 s ± 30 % apart, a cancel of ~8 s, the finish after the last pace. */
const TEST = { timeout: 120_000 };

/** The wait that shows a cancelled campaign sends nothing: longer than the longest gap (5 s + 30 %). */
const CANCELLED_QUIET_MS = 8_000;
/** One send's wait at most: the gap (6.5 s) plus the job queue's poll and the progress push. */
const NEXT_SEND_MS = 15_000;

const CAMPAIGN = 'Feira de Outono';
const CONTACT_LIST = 'Clientes da feira de outono';
const CONNECTION = 'Sandbox Campanhas';
const FILE_LIST = 'Catálogo de outono';
const FILE = {
  name: 'catalogo-outono.pdf',
  type: 'application/pdf',
  data: Buffer.from('%PDF-1.4\n% Catálogo da Feira de Outono\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'),
};

const RECIPIENTS = [
  { name: 'Ana Souza', number: '5511987650001', email: 'ana.souza@exemplo.com.br' },
  { name: 'Bruno Lima', number: '5521987650002', email: 'bruno.lima@exemplo.com.br' },
  { name: 'Célia Prado', number: '5531987650003', email: '' },
  { name: 'Diego Alves', number: '5541987650004', email: 'diego.alves@exemplo.com.br' },
];
type Recipient = (typeof RECIPIENTS)[number];

/** The two variants of the campaign (tabs Msg. 1 and Msg. 2): each recipient gets one of them. */
const VARIANTS = [
  'Olá {nome}! A Feira de Outono começa no sábado, às 9h. Venha conferir!',
  '{nome}, no sábado tem Feira de Outono: esperamos você a partir das 9h!',
];
const rendered = (variant: string, r: Recipient) => variant.replaceAll('{nome}', r.name);

/** What the API answers, as far as this test reads it. */
interface ListItem {
  id: number;
  number: string;
  isWhatsappValid: boolean | null;
}
interface FileListReply {
  id: number;
  options: { id: number; name: string; path: string | null }[];
}
interface CampaignRow {
  id: number;
  name: string;
  status: string;
}

/** The `datetime-local` value of the current minute in the company's time zone (≤ 59 s ago: due now). */
function currentMinuteIn(timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date())
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Picks an option of the MUI select whose root carries `testId`. */
async function choose(page: Page, testId: string, option: string): Promise<void> {
  const combobox = page.getByTestId(testId).getByRole('combobox');
  await combobox.click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await expectText(combobox, option);
}

/** The number of a report's count card (its label is the card's first line). */
function cardValue(page: Page, id: string): Locator {
  return page.getByTestId(`campaign-count-${id}`).locator('p').last();
}

/** The status line, the bar and the "Entregues" card agree on `delivered` of the four. */
async function expectDelivered(page: Page, delivered: number, timeoutMs = 10_000): Promise<void> {
  await eventually(async () => {
    const line = ((await page.getByTestId('campaign-status-line').textContent()) ?? '').trim();
    assert.equal(line, `${delivered} de ${RECIPIENTS.length} entregues`);
    const percent = await page.getByTestId('campaign-progress').getAttribute('aria-valuenow');
    assert.equal(percent, String((delivered / RECIPIENTS.length) * 100));
    assert.equal((await cardValue(page, 'delivered').textContent())?.trim(), String(delivered));
  }, timeoutMs);
}

/** The report's row of a recipient (its name is in the first cell). */
function recipientRow(page: Page, r: Recipient): Locator {
  return page.getByTestId('campaign-report-recipients').locator('tbody tr', { hasText: r.number });
}

async function expectRecipient(page: Page, r: Recipient, status: string, message: string, timeoutMs = 10_000) {
  await eventually(async () => {
    const cells = (await recipientRow(page, r).locator('td').allTextContents()).map((t) => t.trim());
    assert.equal(cells[1], status, `status of ${r.name}`);
    assert.equal(cells[2], message, `message of ${r.name}`);
  }, timeoutMs);
}

describe('campaigns: a paced campaign with variants and a file list, cancelled, restarted and finished', () => {
  const setup = { whatsappId: 0 };

  const suite = productSuite(async (started) => {
    // This API session ends when the admin logs in in the browser; it is only used here.
    const admin = api(started, await apiLogin(started, ADMIN));
    setup.whatsappId = await connectedSandbox(admin, CONNECTION, []);

    // The contact list, its numbers checked on WhatsApp (the sandbox knows every well-formed number).
    const list = await admin.post<{ id: number }>('/contact-lists', { name: CONTACT_LIST });
    for (const r of RECIPIENTS) await admin.post('/contact-list-items', { ...r, contactListId: list.id });
    await until(
      'the contact list items to be checked valid on WhatsApp',
      async () => {
        const { contacts } = await admin.get<{ contacts: ListItem[] }>(`/contact-list-items?contactListId=${list.id}`);
        return contacts.length === RECIPIENTS.length && contacts.every((c) => c.isWhatsappValid === true);
      },
      20_000,
    );

    // A file list with one option and its file.
    const files = await admin.post<FileListReply>('/files', {
      name: FILE_LIST,
      message: 'Confira o catálogo da feira.',
      options: [{ name: 'Catálogo' }],
    });
    const form = new FormData();
    form.append('id', String(files.options[0].id));
    form.append('files', new Blob([new Uint8Array(FILE.data)], { type: FILE.type }), FILE.name);
    const uploaded = await admin.postForm<FileListReply>(`/files/uploadList/${files.id}`, form);
    assert.ok(uploaded.options[0].path, 'the option has its file');
  });

  it('settings, the dialog, live progress with acks, cancel and restart, every phone served once', TEST, () =>
    suite.page('campaigns-journey', async (p) => {
      assert.ok(suite.product);
      await login(p, suite.web, ADMIN);
      const admin: Api = await pageApi(suite.product, p);
      const phone = sandboxPhone(admin, setup.whatsappId);
      /** What each recipient's phone holds now, by number. */
      const phones = async () =>
        new Map(await Promise.all(RECIPIENTS.map(async (r) => [r.number, await phone.outbound(r.number)] as const)));
      const mainOf = (items: OutboundItem[] | undefined) => items?.find((m) => m.media === null);
      /** The recipients whose phone got the campaign's message, in no particular order. */
      const served = async () => {
        const now = await phones();
        return RECIPIENTS.filter((r) => mainOf(now.get(r.number)));
      };

      // 1. The pace: a message every 5 s (± 30 %), no longer pause.
      await p.getByTestId('menu-item-campaigns').click();
      await p.getByTestId('menu-item-campaigns-config').click();
      await waitForPath(p, '/campaigns-config');
      await choose(p, 'campaigns-config-messageInterval', '5 segundos');
      await choose(p, 'campaigns-config-longerIntervalAfter', 'Não definido');
      await choose(p, 'campaigns-config-greaterInterval', 'Não definido');
      await p.getByTestId('campaigns-config-save').click();
      await p.getByText('Configurações salvas').waitFor();

      // 2. The campaign, due now, in the dialog.
      await p.getByTestId('menu-item-campaigns-list').click();
      await waitForPath(p, '/campaigns');
      await p.getByTestId('campaigns-add').click();
      const modal = p.getByTestId('campaign-modal');
      await expectText(p.getByTestId('campaign-modal-title'), 'Nova campanha');
      await p.getByTestId('campaign-name').fill(CAMPAIGN);
      await choose(p, 'campaign-contact-list', CONTACT_LIST);
      await choose(p, 'campaign-connection', CONNECTION);
      await choose(p, 'campaign-file-list', FILE_LIST);
      const timeZone =
        (await admin.get<{ key: string; value: string }[]>('/settings')).find((s) => s.key === 'timezone')?.value ??
        'America/Sao_Paulo';
      await p.getByTestId('campaign-scheduled-at').fill(currentMinuteIn(timeZone));
      await expectText(p.getByTestId('campaign-variables-hint'), 'Variáveis disponíveis: {nome}, {numero}, {email}');
      await p.getByTestId('campaign-tab-1').click();
      await p.getByTestId('campaign-message-1').fill(VARIANTS[0]);
      await p.getByTestId('campaign-tab-2').click();
      await p.getByTestId('campaign-message-2').fill(VARIANTS[1]);
      // Back on the first tab, its text is still there.
      await p.getByTestId('campaign-tab-1').click();
      assert.equal(await p.getByTestId('campaign-message-1').inputValue(), VARIANTS[0]);
      await p.getByTestId('campaign-modal-submit').click();
      await p.getByText('Campanha salva com sucesso.').waitFor();
      await modal.waitFor({ state: 'hidden' });

      const campaign = await until('the campaign in the API', async () => {
        const { records } = await admin.get<{ records: CampaignRow[] }>('/campaigns/');
        return records.find((c) => c.name === CAMPAIGN);
      });
      const id = campaign.id;

      const status = p.getByTestId(`campaign-status-${id}`);
      await expectText(p.getByTestId(`campaign-name-${id}`), CAMPAIGN);
      await expectText(status, 'Em Andamento');
      await expectText(p.getByTestId(`campaign-contact-list-${id}`), CONTACT_LIST);
      await expectText(p.getByTestId(`campaign-connection-${id}`), CONNECTION);
      await expectText(p.getByTestId(`campaign-completed-at-${id}`), 'Não concluída');

      // 3. The first phone receives it: stop the campaign from its row before the next pace.
      const [first] = await until('a first phone to receive the campaign', async () => {
        const now = await served();
        return now.length > 0 && now;
      });
      await p.getByTestId(`campaign-stop-${id}`).click();
      await p.getByText('Campanha cancelada.').waitFor();
      await expectText(status, 'Cancelada');
      const cancelledAt = Date.now();
      // The recipient being served when it stopped gets its whole message: the text and the file.
      const atCancel = await until('the served phones to hold the message and the file', async () => {
        const now = await phones();
        const got = [...now.values()].filter((items) => items.length > 0);
        return got.every((items) => items.length === 2) && now;
      });
      const servedAtCancel = RECIPIENTS.filter((r) => mainOf(atCancel.get(r.number)));
      assert.ok(servedAtCancel.includes(first));
      assert.ok(servedAtCancel.length < RECIPIENTS.length, 'the cancel came before the last send');

      // The report of the cancelled campaign: nothing delivered until the phone acknowledges.
      await p.getByTestId(`campaign-report-${id}`).click();
      await waitForPath(p, `/campaign/${id}/report`);
      await expectText(p.getByTestId('campaign-report-title'), CAMPAIGN);
      await expectText(p.getByTestId('campaign-report-status'), 'Cancelada');
      await expectText(cardValue(p, 'validContacts'), String(RECIPIENTS.length));
      await expectText(cardValue(p, 'contactList'), CONTACT_LIST);
      await expectText(cardValue(p, 'whatsapp'), CONNECTION);
      await expectDelivered(p, 0);
      const firstMain = mainOf(atCancel.get(first.number)) as OutboundItem;
      const firstTab = `Msg. ${VARIANTS.findIndex((v) => rendered(v, first) === firstMain.body) + 1}`;
      assert.notEqual(firstTab, 'Msg. 0', `${first.name} got one of the variants: ${firstMain.body}`);
      await expectRecipient(p, first, 'Enviada', firstTab);
      for (const r of RECIPIENTS.filter((x) => !servedAtCancel.includes(x)))
        await expectRecipient(p, r, 'Pendente', '—');

      // Delivered, then read: the line counts the recipient once; the cards tell the two apart.
      await phone.ack(firstMain.providerId, 2);
      await expectDelivered(p, 1);
      await expectRecipient(p, first, 'Entregue', firstTab);
      await phone.ack(firstMain.providerId, 3);
      await expectText(cardValue(p, 'read'), '1');
      await expectDelivered(p, 1);
      await expectRecipient(p, first, 'Lida', firstTab);
      // Anyone else served at the cancel is acknowledged too (the cancel usually beats the second send).
      for (const r of servedAtCancel.filter((x) => x !== first)) {
        await phone.ack((mainOf(atCancel.get(r.number)) as OutboundItem).providerId, 2);
      }
      await expectDelivered(p, servedAtCancel.length);

      // Cancelled means quiet: longer than any pace, and no phone got anything more.
      await new Promise((r) => setTimeout(r, Math.max(0, cancelledAt + CANCELLED_QUIET_MS - Date.now())));
      const quiet = await phones();
      for (const r of RECIPIENTS)
        assert.deepEqual(
          quiet.get(r.number)?.map((m) => m.id),
          atCancel.get(r.number)?.map((m) => m.id),
          `${r.name}'s phone got nothing while the campaign was cancelled`,
        );

      // 4. Restart from the campaign's dialog (a cancelled campaign only lets its messages change).
      await p.getByTestId('campaign-report-back').click();
      await waitForPath(p, '/campaigns');
      await expectText(status, 'Cancelada');
      await p.getByTestId(`campaign-edit-${id}`).click();
      await p.getByTestId('campaign-messages-only-note').waitFor();
      await p.getByTestId('campaign-modal-restart').click();
      await p.getByText('Campanha reiniciada.').waitFor();
      await p.getByTestId('campaign-modal-stop').waitFor();
      await p.getByTestId('campaign-modal-close').click();
      await modal.waitFor({ state: 'hidden' });
      await expectText(status, 'Em Andamento');

      // The report fills live as the other phones receive and acknowledge it, one pace apart.
      await p.getByTestId(`campaign-report-${id}`).click();
      await waitForPath(p, `/campaign/${id}/report`);
      await expectText(p.getByTestId('campaign-report-status'), 'Em Andamento');
      const acked = new Set(servedAtCancel.map((r) => r.number));
      while (acked.size < RECIPIENTS.length) {
        const now = await until(
          `phone ${acked.size + 1} of ${RECIPIENTS.length} to receive the campaign`,
          async () => {
            const got = await phones();
            const fresh = RECIPIENTS.filter((r) => !acked.has(r.number) && mainOf(got.get(r.number)));
            return fresh.length > 0 && { got, fresh };
          },
          NEXT_SEND_MS,
        );
        for (const r of now.fresh) {
          await phone.ack((mainOf(now.got.get(r.number)) as OutboundItem).providerId, 2);
          acked.add(r.number);
        }
        await expectDelivered(p, acked.size);
      }

      // Nothing left to send: Finalizada once the last pace has passed, with its completion time.
      await eventually(async () => {
        assert.equal((await p.getByTestId('campaign-report-status').textContent())?.trim(), 'Finalizada');
      }, NEXT_SEND_MS);
      await expectDelivered(p, RECIPIENTS.length);
      assert.notEqual((await cardValue(p, 'completedAt').textContent())?.trim(), 'Não concluída');
      await expectText(cardValue(p, 'failed'), '0');
      await expectText(cardValue(p, 'skipped'), '0');

      // Every phone: one of the two variants with its own name, then the list's file; nothing twice.
      const final = await phones();
      for (const r of RECIPIENTS) {
        const items = final.get(r.number) ?? [];
        const texts = items.filter((m) => m.media === null);
        const files = items.filter((m) => m.media !== null);
        assert.equal(texts.length, 1, `${r.name} got one message: ${JSON.stringify(texts.map((m) => m.body))}`);
        const index = VARIANTS.findIndex((v) => rendered(v, r) === texts[0].body);
        assert.ok(index >= 0, `${r.name} got a variant with the name: ${texts[0].body}`);
        assert.equal(files.length, 1, `${r.name} got the file once`);
        assert.equal(files[0].media?.fileName, FILE.name);
        assert.equal(files[0].media?.mimetype, FILE.type);
        assert.ok(files[0].id > texts[0].id, 'the file comes after the message');
        await expectRecipient(p, r, r === first ? 'Lida' : 'Entregue', `Msg. ${index + 1}`, NEXT_SEND_MS);
      }

      // The list says it too.
      await p.getByTestId('campaign-report-back').click();
      await waitForPath(p, '/campaigns');
      await expectText(status, 'Finalizada');
      assert.notEqual((await p.getByTestId(`campaign-completed-at-${id}`).textContent())?.trim(), 'Não concluída');
      assert.equal(await p.getByTestId(`campaign-stop-${id}`).count(), 0);
      assert.equal(await p.getByTestId(`campaign-restart-${id}`).count(), 0);
    }),
  );
});
