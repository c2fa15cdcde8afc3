import type { Call, Channel } from '../channels/channel.js';
import { handleInbound } from '../inbound/handle-inbound.js';
import { getSetting } from '../modules/settings/settings.service.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import type { Storage } from '../platform/storage/storage.js';
import { zonedFormatter } from '../platform/time-zones.js';
import { type AutomationDeps, sendAutomatic } from './send-automatic.js';

export const CALLS_DISABLED_MESSAGE =
  'As chamadas de voz e vídeo estão desabilitadas para este WhatsApp, por favor, envie uma mensagem de texto.';

export interface CallDeps extends AutomationDeps {
  storage: Storage;
  /** The live channel of a connection; throws when it is not running. */
  channelOf: (whatsappId: number) => Channel;
}

/** The provider id of a call's log message: a redelivered call event is the same message (DOMAIN §1.2). */
export const callProviderId = (callId: string) => `CALL:${callId}`.slice(0, 128);

const clockFormat = zonedFormatter('pt-BR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const clock = (now: Date, timeZone: string) => clockFormat(timeZone).format(now);

/**
 * An incoming voice/video call (DOMAIN §5): always logged as a `call_log` message on the contact's
 * ticket through the inbound pipeline; with setting `call` disabled, also rejected through the
 * provider and answered with an automatic text. A repeated call event stores nothing and sends nothing.
 */
export async function handleCall(deps: CallDeps, call: Call): Promise<void> {
  const number = call.from.split('@')[0].replace(/\D/g, '');
  if (!number || !call.callId) {
    deps.log.warn({ whatsappId: call.whatsappId }, 'call without caller or id ignored');
    return;
  }
  const disabled = (await getSetting(deps.db, call.companyId, 'call')) === 'disabled';
  if (disabled) {
    // The phone is ringing: reject first. Rejecting twice is harmless; a failure must not lose the log.
    try {
      const channel = deps.channelOf(call.whatsappId);
      await channel.rejectCall?.(call.callId, call.from);
    } catch (err) {
      deps.log.warn({ err, whatsappId: call.whatsappId }, 'call not rejected');
    }
  }
  const now = deps.now?.() ?? new Date();
  const timeZone = await getSetting(deps.db, call.companyId, 'timezone');
  const stored = await handleInbound(
    { db: deps.db, realtime: deps.realtime, storage: deps.storage, log: deps.log },
    {
      companyId: call.companyId,
      whatsappId: call.whatsappId,
      providerId: callProviderId(call.callId),
      number,
      fromMe: false,
      body: `Chamada de voz/vídeo perdida às ${clock(now, timeZone)}`,
      mediaType: 'call_log',
    },
  );
  if ('skipped' in stored || !disabled) return;
  const view = await selectTicket(deps.db, call.companyId, stored.ticketId);
  if (!view) return;
  await sendAutomatic(deps, { ...view, companyId: call.companyId }, CALLS_DISABLED_MESSAGE);
}
