import type { FileList } from '@balcao/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { mockApi } from '../../test/mockApi';
import { renderWithProviders, testQueryClient } from '../../test/render';
import { message, quickMessage, ticket } from '../tickets/testing';
import { MessageInput } from './MessageInput';
import { conversationOf, type MessagesData } from './messagesCache';
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

function renderInput(t = open, queryClient = testQueryClient()) {
  return renderWithProviders(
    <ReplyProvider>
      <MessageInput ticket={t} onAccept={vi.fn()} />
    </ReplyProvider>,
    { queryClient },
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

  it('sends a file list from the attach menu: only lists with files can be chosen, and its messages join the chat', async () => {
    const fileList = (id: number, name: string, paths: (string | null)[]): FileList => ({
      id,
      name,
      message: `Mensagem de ${name}`,
      userId: 1,
      options: paths.map((path, i) => ({
        id: id * 10 + i,
        name: `Arquivo ${i}`,
        path,
        mediaType: null,
        fileName: null,
      })),
    });
    const api = mockApi({
      'GET /quick-messages/list': () => [],
      'GET /files/': () => ({
        files: [fileList(5, 'Catálogo', ['/media/1/a.pdf', '/media/1/b.png', null]), fileList(6, 'Vazia', [null])],
        count: 2,
        hasMore: false,
      }),
      'POST /messages/1/file-list/5': () => [
        message({ id: 60, fromMe: true, body: 'Mensagem de Catálogo' }),
        message({ id: 61, fromMe: true, body: '', mediaType: 'application', mediaName: 'a.pdf' }),
        message({ id: 62, fromMe: true, body: '', mediaType: 'image', mediaName: 'b.png' }),
      ],
    });
    const queryClient = testQueryClient();
    queryClient.setQueryData<MessagesData>(queryKeys.messages.list(1), {
      pages: [{ messages: [message({ id: 50, body: 'Oi' })], count: 1, hasMore: false }],
      pageParams: [1],
    });
    renderInput(open, queryClient);

    await userEvent.click(screen.getByTestId('attach-button'));
    await userEvent.click(await screen.findByTestId('attach-file-list'));
    const picker = await screen.findByTestId('file-list-picker');
    const catalogue = await within(picker).findByTestId('file-list-option-5');
    expect(catalogue.textContent).toContain('Catálogo');
    expect(catalogue.textContent).toContain('2 arquivos');
    expect(within(picker).getByTestId('file-list-option-6').getAttribute('aria-disabled')).toBe('true');
    expect((within(picker).getByTestId('file-list-send') as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(catalogue);
    await userEvent.click(within(picker).getByTestId('file-list-send'));
    await waitFor(() => expect(api.calls('POST /messages/1/file-list/5')).toEqual([{}]));
    await waitFor(() => expect(screen.queryByTestId('file-list-picker')).toBeNull());
    expect(conversationOf(queryClient.getQueryData(queryKeys.messages.list(1))).map((m) => m.id)).toEqual([
      50, 60, 61, 62,
    ]);
    expect(api.calls('POST /messages/1/file-list/6')).toHaveLength(0);
  });

  it('the attach menu still attaches files from the computer', async () => {
    messagesApi();
    renderInput();
    const input = screen.getByTestId('attach-input') as HTMLInputElement;
    const picked = vi.spyOn(input, 'click');
    await userEvent.click(screen.getByTestId('attach-button'));
    await userEvent.click(await screen.findByTestId('attach-files'));
    expect(picked).toHaveBeenCalled();
  });
});
