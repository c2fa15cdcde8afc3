import { describe, expect, it } from 'vitest';
import { downloadPicture, hasNoPicture, PICTURE_MAX_BYTES } from './profile-picture.js';

/** The download of a picture URL WhatsApp gave: bounded, so a bad answer cannot hold the refresher. */

const URL_OK = 'https://pps.whatsapp.net/v/t61/1.jpg?oe=1';
const answering =
  (body: BodyInit | null, init: ResponseInit = {}, seen: RequestInit[] = []): typeof fetch =>
  async (_url, options) => {
    seen.push(options ?? {});
    return new Response(body, init);
  };

describe('downloadPicture', () => {
  it('reads the bytes, without following redirects and with a timeout', async () => {
    const seen: RequestInit[] = [];
    const bytes = await downloadPicture(URL_OK, answering(new Uint8Array([1, 2, 3]), {}, seen));
    expect([...bytes]).toEqual([1, 2, 3]);
    expect(seen[0].redirect).toBe('error');
    expect(seen[0].signal).toBeInstanceOf(AbortSignal);
  });

  it('refuses anything but https, a failed answer and a body over the cap, declared or not', async () => {
    await expect(downloadPicture('http://pps.whatsapp.net/1.jpg', answering('x'))).rejects.toThrow(/https/);
    await expect(downloadPicture('file:///etc/passwd', answering('x'))).rejects.toThrow(/https/);
    await expect(downloadPicture(URL_OK, answering('no', { status: 403 }))).rejects.toThrow(/403/);
    const declared = answering('small', { headers: { 'content-length': String(PICTURE_MAX_BYTES + 1) } });
    await expect(downloadPicture(URL_OK, declared)).rejects.toThrow(/too large/);
    // No length announced: counted as it streams.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(256 * 1024));
      },
    });
    await expect(downloadPicture(URL_OK, answering(endless))).rejects.toThrow(/too large/);
  });
});

describe('hasNoPicture', () => {
  it('reads WhatsApp’s “none” (404) and “hidden” (401) answers; anything else is a failure', () => {
    expect(hasNoPicture(Object.assign(new Error('item-not-found'), { data: 404 }))).toBe(true);
    expect(hasNoPicture(Object.assign(new Error('not-authorized'), { data: 401 }))).toBe(true);
    expect(hasNoPicture(Object.assign(new Error('rate-overlimit'), { data: 429 }))).toBe(false);
    expect(hasNoPicture(new Error('Timed Out'))).toBe(false);
    expect(hasNoPicture(undefined)).toBe(false);
  });
});
