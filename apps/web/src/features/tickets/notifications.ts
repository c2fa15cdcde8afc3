import { companyEvent } from '@balcao/shared';
import { useSyncExternalStore } from 'react';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { storedVolume } from '../../layout/volume';
import { type AppMessagePayload, ticketOfPayload } from './ticketsCache';

type Listener = () => void;

/**
 * Unseen contact messages per ticket (the notification badge), and the ticket on screen. Opening
 * a ticket clears its count.
 */
function createNotificationStore() {
  const counts = new Map<number, number>();
  const listeners = new Set<Listener>();
  let total = 0;
  let viewing: number | null = null;
  const changed = () => {
    total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    for (const listener of listeners) listener();
  };
  return {
    add(ticketId: number) {
      counts.set(ticketId, (counts.get(ticketId) ?? 0) + 1);
      changed();
    },
    clear(ticketId: number) {
      if (counts.delete(ticketId)) changed();
    },
    reset() {
      counts.clear();
      viewing = null;
      changed();
    },
    setViewing(ticketId: number | null) {
      viewing = ticketId;
      if (ticketId !== null) this.clear(ticketId);
    },
    viewing: () => viewing,
    total: () => total,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const ticketNotifications = createNotificationStore();

/** The number of unseen contact messages, for a badge (e.g. in the top bar). */
export function useNotificationCount(): number {
  return useSyncExternalStore(ticketNotifications.subscribe, ticketNotifications.total, ticketNotifications.total);
}

/**
 * A new contact message notifies when its ticket is pending, or is not the one on screen (or the
 * page is hidden); tickets assigned to someone else never notify.
 */
export function shouldNotify(
  payload: AppMessagePayload,
  userId: number,
  viewing: number | null,
  visible: boolean,
): boolean {
  if (payload.action !== 'create' || payload.message.fromMe) return false;
  const ticket = ticketOfPayload(payload);
  if (ticket?.userId != null && ticket.userId !== userId) return false;
  if (ticket?.status === 'pending') return true;
  return payload.message.ticketId !== viewing || !visible;
}

type AudioContextClass = typeof AudioContext;

let audioContext: AudioContext | null = null;

/** A short two-tone beep through WebAudio at the stored volume (0..1); silent without WebAudio. */
export function playBeep(volume: number = storedVolume()): void {
  const Context: AudioContextClass | undefined =
    globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
  if (!Context || volume <= 0) return;
  try {
    audioContext ??= new Context();
    const ctx = audioContext;
    if (ctx.state === 'suspended') void ctx.resume();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    const start = ctx.currentTime;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, 0.4 * volume), start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
    for (const [frequency, offset] of [
      [880, 0],
      [1320, 0.12],
    ] as const) {
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(frequency, start + offset);
      osc.connect(gain);
      osc.start(start + offset);
      osc.stop(start + offset + 0.2);
    }
  } catch {
    // Sound is a courtesy: a browser that refuses audio must not break the screen.
  }
}

/** Beeps and counts new contact messages (spec §2 notifications). Mounted once, by the app layout. */
export function useTicketNotifications(companyId: number, userId: number): void {
  useSocketEvent<AppMessagePayload>(companyEvent.appMessage(companyId), (payload) => {
    const visible = typeof document === 'undefined' || document.visibilityState !== 'hidden';
    if (!shouldNotify(payload, userId, ticketNotifications.viewing(), visible)) return;
    ticketNotifications.add(payload.message.ticketId);
    playBeep();
  });
}
