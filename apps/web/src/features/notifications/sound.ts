import { storedVolume } from '../../layout/volume';

type AudioContextClass = typeof AudioContext;

let audioContext: AudioContext | null = null;

function context(): AudioContext | null {
  const Context: AudioContextClass | undefined =
    globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
  if (!Context) return null;
  audioContext ??= new Context();
  return audioContext;
}

/**
 * Browsers start audio suspended until the page gets a user gesture, so a beep after a reload
 * would be silent: the first click or key press resumes it.
 */
export function unlockAudio(): void {
  try {
    const ctx = context();
    if (ctx?.state === 'suspended') void ctx.resume();
  } catch {
    // No audio: the beep stays silent, nothing else depends on it.
  }
}

/** A short two-tone beep through WebAudio at the stored volume (0..1); silent without WebAudio. */
export function playBeep(volume: number = storedVolume()): void {
  if (volume <= 0) return;
  try {
    const ctx = context();
    if (!ctx) return;
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
