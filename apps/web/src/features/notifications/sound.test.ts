import { STORAGE } from '@balcao/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** A WebAudio stand-in that records the gain ramps and the oscillators of each beep. */
const created = vi.fn();
const gains: { ramps: number[]; connect: ReturnType<typeof vi.fn> }[] = [];
const oscillators: { start: ReturnType<typeof vi.fn> }[] = [];

class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = { destination: true };
  resume = vi.fn(() => Promise.resolve());
  constructor() {
    created();
  }
  createGain() {
    const ramps: number[] = [];
    const node = {
      ramps,
      connect: vi.fn(),
      gain: {
        setValueAtTime: vi.fn((value: number) => ramps.push(value)),
        exponentialRampToValueAtTime: vi.fn((value: number) => ramps.push(value)),
      },
    };
    gains.push(node);
    return node;
  }
  createOscillator() {
    const node = {
      type: '',
      frequency: { setValueAtTime: vi.fn() },
      connect: vi.fn(),
      start: vi.fn(),
      stop: vi.fn(),
    };
    oscillators.push(node);
    return node;
  }
}

/** The module keeps one AudioContext: each test loads a fresh copy. */
async function loadSound() {
  vi.resetModules();
  return import('./sound');
}

/** The loudest gain the beep reaches. */
const peak = () => Math.max(...gains.flatMap((g) => g.ramps));

describe('playBeep follows the stored volume (the chat and ticket notification beep)', () => {
  beforeEach(() => {
    gains.length = 0;
    oscillators.length = 0;
    vi.stubGlobal('AudioContext', FakeAudioContext);
  });

  it('is silent at volume 0: no audio context, no gain, no oscillator', async () => {
    localStorage.setItem(STORAGE.volume, '0');
    const { playBeep } = await loadSound();
    playBeep();
    expect(created).not.toHaveBeenCalled();
    expect(gains).toHaveLength(0);
    expect(oscillators).toHaveLength(0);
  });

  it('plays at the stored volume: the gain scales with it', async () => {
    const { playBeep } = await loadSound();
    localStorage.setItem(STORAGE.volume, '0.5');
    playBeep();
    expect(gains).toHaveLength(1);
    expect(oscillators).toHaveLength(2);
    for (const osc of oscillators) expect(osc.start).toHaveBeenCalledTimes(1);
    expect(gains[0].connect).toHaveBeenCalledWith(expect.objectContaining({ destination: true }));
    const half = peak();
    expect(half).toBeCloseTo(0.2);

    gains.length = 0;
    localStorage.setItem(STORAGE.volume, '1');
    playBeep();
    expect(peak()).toBeCloseTo(0.4);
    expect(peak()).toBeCloseTo(half * 2);

    gains.length = 0;
    localStorage.setItem(STORAGE.volume, '0.1');
    playBeep();
    expect(peak()).toBeCloseTo(0.04);
  });

  it('reads the volume at each beep: turned down to 0 after a beep, the next one is silent', async () => {
    const { playBeep } = await loadSound();
    localStorage.setItem(STORAGE.volume, '0.8');
    playBeep();
    expect(gains).toHaveLength(1);
    localStorage.setItem(STORAGE.volume, '0');
    playBeep();
    expect(gains).toHaveLength(1);
    expect(oscillators).toHaveLength(2);
  });

  it('plays at full volume when nothing is stored, and clamps a stored value out of range', async () => {
    const { playBeep } = await loadSound();
    playBeep();
    expect(peak()).toBeCloseTo(0.4);
    gains.length = 0;
    localStorage.setItem(STORAGE.volume, '7');
    playBeep();
    expect(peak()).toBeCloseTo(0.4);
    gains.length = 0;
    localStorage.setItem(STORAGE.volume, '-1');
    playBeep();
    expect(gains).toHaveLength(0);
  });
});
