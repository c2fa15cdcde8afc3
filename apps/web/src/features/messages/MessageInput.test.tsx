import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import { message, quickMessage, ticket } from '../tickets/testing';
import { MessageInput } from './MessageInput';
import type { PcmCapture } from './pcmCapture';
import { ReplyProvider } from './ReplyContext';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

/** Seconds of a 440 Hz tone the fake microphone delivers when the recording stops. */
const microphone = { seconds: 0, stopped: vi.fn(), aborted: vi.fn() };

vi.mock('./pcmCapture', () => ({
  capturePcm: async (
    _stream: MediaStream,
    _rates: readonly number[],
    onSamples: (samples: Float32Array) => void,
  ): Promise<PcmCapture> => ({
    sampleRate: 44_100,
    async stop() {
      const samples = new Float32Array(Math.round(microphone.seconds * 44_100));
      for (let i = 0; i < samples.length; i++) samples[i] = 0.5 * Math.sin((2 * Math.PI * 440 * i) / 44_100);
      for (let i = 0; i < samples.length; i += 4096) onSamples(samples.slice(i, i + 4096));
    },
    abort: microphone.aborted,
  }),
}));

function fakeMicrophone() {
  const track = { stop: microphone.stopped };
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(async () => ({ getTracks: () => [track] })) },
  });
}

const open = ticket({ id: 1, status: 'open', userId: 7 });

function messagesApi() {
  return mockApi({
    'POST /messages/1': (body) => [message({ id: 50, fromMe: true, body: (body as { body: string }).body })],
    'GET /quick-messages/list': () => [
      quickMessage({ id: 1, shortcode: 'saudacao', message: 'Olá! Seja muito bem-vindo ao nosso atendimento online.' }),
      quickMessage({ id: 2, shortcode: 'pix', message: 'Nossa chave PIX é 123' }),
    ],
  });
}

function renderInput(t = open) {
  return renderWithProviders(
    <ReplyProvider>
      <MessageInput ticket={t} onAccept={vi.fn()} />
    </ReplyProvider>,
  );
}

const input = () => screen.getByTestId('message-input') as HTMLTextAreaElement;

describe('MessageInput', () => {
  it('sends with Enter and breaks the line with Shift+Enter', async () => {
    localStorage.setItem('signOption', 'false');
    const api = messagesApi();
    renderInput();

    await userEvent.type(input(), 'a{Shift>}{Enter}{/Shift}b');
    expect(input().value).toBe('a\nb');
    expect(api.calls('POST /messages/1')).toHaveLength(0);

    await userEvent.type(input(), '{Enter}');
    await waitFor(() => expect(api.calls('POST /messages/1')).toEqual([{ body: 'a\nb' }]));
    expect(input().value).toBe('');
  });

  it('does not send a blank message', async () => {
    const api = messagesApi();
    renderInput();
    await userEvent.type(input(), '   {Enter}');
    fireEvent.click(screen.getByTestId('send-button'));
    expect(api.calls('POST /messages/1')).toHaveLength(0);
  });

  it('signs the message with the user name by default', async () => {
    const api = messagesApi();
    renderInput();
    expect((screen.getByTestId('sign-switch').querySelector('input') as HTMLInputElement).checked).toBe(true);
    await userEvent.type(input(), 'Bom dia');
    await userEvent.click(screen.getByTestId('send-button'));
    await waitFor(() => expect(api.calls('POST /messages/1')).toEqual([{ body: '*Ana Souza:*\nBom dia' }]));
  });

  it('suggests quick replies after "/" and a character, labels cut at 35, and inserts the message', async () => {
    messagesApi();
    renderInput();
    await userEvent.type(input(), '/');
    expect(screen.queryByTestId('quick-replies')).toBeNull();

    await userEvent.type(input(), 'sau');
    const option = await screen.findByTestId('quick-reply-1');
    expect(option.textContent).toBe('/saudacao - Olá! Seja muito bem-vindo ao nosso ...');
    expect(screen.queryByTestId('quick-reply-2')).toBeNull();

    await userEvent.click(option);
    expect(input().value).toBe('Olá! Seja muito bem-vindo ao nosso atendimento online.');
    expect(screen.queryByTestId('quick-replies')).toBeNull();
  });

  it("attaches a quick reply's file: removable, and sent as quickMessageId with the unrendered text", async () => {
    localStorage.setItem('signOption', 'false');
    const api = mockApi({
      'POST /messages/1': () => [message({ id: 51, fromMe: true })],
      'GET /quick-messages/list': () => [
        quickMessage({ id: 3, shortcode: 'menu', message: 'Olá {{firstName}}!', isMedia: true, mediaName: 'menu.pdf' }),
      ],
    });
    renderInput();
    await userEvent.type(input(), '/men');
    await userEvent.click(await screen.findByTestId('quick-reply-3'));
    expect(screen.getByTestId('quick-reply-media').textContent).toBe('menu.pdf');
    await userEvent.type(input(), '{Enter}');
    await waitFor(() =>
      expect(api.calls('POST /messages/1')).toEqual([{ body: 'Olá {{firstName}}!', quickMessageId: 3 }]),
    );
    expect(screen.queryByTestId('quick-reply-media')).toBeNull();

    // Removing the file sends the text alone.
    await userEvent.type(input(), '/men');
    await userEvent.click(await screen.findByTestId('quick-reply-3'));
    fireEvent.click(screen.getByTestId('quick-reply-media').querySelector('.MuiChip-deleteIcon') as Element);
    await userEvent.type(input(), '{Enter}');
    await waitFor(() => expect(api.calls('POST /messages/1')).toHaveLength(2));
    expect(api.calls('POST /messages/1')[1]).toEqual({ body: 'Olá {{firstName}}!' });
  });

  it('asks to accept a pending ticket instead of offering the input', () => {
    renderInput(ticket({ id: 1, status: 'pending', userId: null, user: null }));
    expect(screen.queryByTestId('message-input')).toBeNull();
    expect(screen.getByTestId('input-accept-button')).toBeTruthy();
  });

  it('records a voice note and sends it as audio.mp3 (audio/mpeg)', async () => {
    const api = messagesApi();
    fakeMicrophone();
    microphone.seconds = 2;
    renderInput();

    await userEvent.click(screen.getByTestId('record-button'));
    await userEvent.click(await screen.findByTestId('record-send'));

    await waitFor(() => expect(api.fetch.mock.calls.some(([, init]) => init?.body instanceof FormData)).toBe(true));
    const [, init] = api.fetch.mock.calls.find(([, init]) => init?.body instanceof FormData) ?? [];
    const form = init?.body as FormData;
    const file = form.get('medias') as File;
    expect(file.name).toBe('audio.mp3');
    expect(file.type).toBe('audio/mpeg');
    // 2 s at 128 kbps: about 32 000 bytes.
    expect(file.size).toBeGreaterThan(30_000);
    expect(file.size).toBeLessThan(34_000);
    expect(form.get('body')).toBe('');
    expect(microphone.stopped).toHaveBeenCalled();
    expect(screen.queryByTestId('recording')).toBeNull();
  });

  it('drops a recording under 10 000 bytes without sending it', async () => {
    const api = messagesApi();
    fakeMicrophone();
    microphone.seconds = 0.3;
    renderInput();

    await userEvent.click(screen.getByTestId('record-button'));
    await userEvent.click(await screen.findByTestId('record-send'));

    await waitFor(() => expect(screen.queryByTestId('recording')).toBeNull());
    expect(api.fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('cancels a recording: the microphone is released and nothing is sent', async () => {
    const api = messagesApi();
    fakeMicrophone();
    microphone.seconds = 2;
    renderInput();

    await userEvent.click(screen.getByTestId('record-button'));
    await userEvent.click(await screen.findByTestId('record-cancel'));

    expect(screen.queryByTestId('recording')).toBeNull();
    expect(microphone.stopped).toHaveBeenCalled();
    expect(microphone.aborted).toHaveBeenCalled();
    expect(api.fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
