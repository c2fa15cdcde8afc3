import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type Api, api, apiLogin, connectedSandbox, pageApi, sandboxPhone, until } from '../support/api';
import { ADMIN } from '../support/product';
import { productSuite } from '../support/suite';
import { eventually, login, waitForPath } from '../support/ui';

const TEST = { timeout: 90_000 };

/** A 1×1 PNG: the contact's picture, shown in the chat from a blob URL. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Pages of the shell, each loaded afresh (its own bundle run, socket and API calls) under the policy. */
const PAGES = ['/connections', '/contacts', '/tags', '/queues', '/quick-messages', '/users', '/settings', '/sandbox'];

/**
 * Everything the page reports about the Content-Security-Policy: `securitypolicyviolation` events
 * (recorded from the first script on) and the console lines Chromium writes for a refused load.
 */
async function watchPolicy(p: Page) {
  const seen: string[] = [];
  const policies: string[] = [];
  await p.exposeFunction('__reportViolation', (v: string) => seen.push(v));
  await p.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportViolation: (v: string) => void }).__reportViolation;
      report(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  p.on('console', (m) => {
    if (/content security policy|refused to/i.test(m.text())) seen.push(`[console.${m.type()}] ${m.text()}`);
  });
  p.on('response', (r) => {
    if (r.request().resourceType() === 'document') policies.push(r.headers()['content-security-policy'] ?? '');
  });
  return { violations: seen, policies };
}

describe('security headers: the client works under its Content-Security-Policy', () => {
  let whatsappId = 0;

  const suite = productSuite(async (started) => {
    // This API session ends when the admin logs in in the browser; it is only used here.
    const admin = api(started, await apiLogin(started, ADMIN));
    const queue = await admin.post<{ id: number }>('/queue', { name: 'Segurança', color: '#455A64' });
    whatsappId = await connectedSandbox(admin, 'Sandbox CSP', [queue.id]);
  });

  it('log in, take a ticket with a picture, reply, open every page, load the audio worklet: no violation', TEST, () => {
    return suite.page('csp', async (p) => {
      assert.ok(suite.product);
      const { violations, policies } = await watchPolicy(p);
      await login(p, suite.web, ADMIN);
      const admin: Api = await pageApi(suite.product, p);

      // Live list (websocket), the picture fetched with the token into a blob URL, a reply sent.
      const contact = { number: '5511944440001', name: 'Helena Headers' };
      const phone = sandboxPhone(admin, whatsappId);
      await phone.inbound({ ...contact, media: { fileName: 'foto.png', mimetype: 'image/png', base64: PNG_BASE64 } });
      await p.getByTestId('tab-pending').click();
      const { tickets } = await until('the ticket in the list', async () => {
        const list = await admin.get<{ tickets: { id: number; uuid: string; contact: { number: string } }[] }>(
          `/tickets?showAll=true&searchParam=${contact.number}`,
        );
        return list.tickets.length ? list : undefined;
      });
      const [ticket] = tickets;
      await p.getByTestId(`ticket-item-${ticket.id}`).getByTestId('accept-button').click();
      await waitForPath(p, `/tickets/${ticket.uuid}`);
      const { messages } = await admin.get<{ messages: { id: number; mediaType: string }[] }>(`/messages/${ticket.id}`);
      const picture = messages.find((m) => m.mediaType === 'image');
      assert.ok(picture, 'the picture is stored');
      await eventually(async () => {
        const width = await p.getByTestId(`media-${picture.id}`).evaluate((el) => {
          const img = el instanceof HTMLImageElement ? el : el.querySelector('img');
          return img?.complete ? img.naturalWidth : 0;
        });
        assert.equal(width, 1, 'the picture is shown');
      });
      const input = p.getByTestId('message-composer').getByTestId('message-input');
      await input.fill('Recebi a foto, obrigado!');
      await input.press('Enter');
      await phone.received(contact.number, 'the reply', (m) => m.body.includes('Recebi a foto'));

      for (const path of PAGES) {
        await p.goto(`${suite.web}${path}`);
        await p.getByTestId('app-drawer').waitFor();
        await p.waitForLoadState('networkidle');
      }

      // The voice recorder's audio worklet is a module built from a blob URL.
      const worklet = await p.evaluate(async () => {
        const context = new AudioContext();
        const source =
          'registerProcessor("csp-probe", class extends AudioWorkletProcessor { process() { return false; } });';
        const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
        try {
          await context.audioWorklet.addModule(url);
          return 'loaded';
        } catch (err) {
          return String(err);
        } finally {
          await context.close();
        }
      });
      assert.equal(worklet, 'loaded');

      assert.ok(policies.length > PAGES.length, 'every document was served');
      for (const policy of policies) assert.match(policy, /frame-ancestors 'none'/, 'each document carries the policy');
      assert.deepEqual(violations, []);
    });
  });

  it('a page of another site cannot frame the client', TEST, () => {
    return suite.page('csp-frame', async (p) => {
      const { violations } = await watchPolicy(p);
      await p.setContent(`<iframe src="${suite.web}/login"></iframe>`);
      await eventually(() =>
        assert.ok(
          violations.some((v) => /frame-ancestors/.test(v)),
          'the framing is refused',
        ),
      );
    });
  });
});
