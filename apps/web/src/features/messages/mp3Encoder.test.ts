import { describe, expect, it } from 'vitest';
import { createMp3Encoding, MP3_KBPS, toPcm16 } from './mp3Encoder';

const RATE = 44_100;

function sine(seconds: number, frequency = 440, rate = RATE): Float32Array {
  const samples = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < samples.length; i++) samples[i] = 0.6 * Math.sin((2 * Math.PI * frequency * i) / rate);
  return samples;
}

function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });
}

/** Encodes `samples` fed in chunks of `chunk` samples (as the microphone delivers them). */
async function encode(samples: Float32Array, chunk = 4096, rate = RATE): Promise<{ blob: Blob; bytes: Uint8Array }> {
  const encoding = createMp3Encoding(rate);
  for (let i = 0; i < samples.length; i += chunk) encoding.encode(samples.subarray(i, i + chunk));
  const blob = encoding.finish();
  return { blob, bytes: await bytesOf(blob) };
}

/** Offsets of the MPEG audio frames, walking from the first one by each header's frame length. */
function frames(bytes: Uint8Array): { offset: number; kbps: number }[] {
  const BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const RATES = [44_100, 48_000, 32_000];
  const found: { offset: number; kbps: number }[] = [];
  let offset = 0;
  while (offset + 4 <= bytes.length) {
    // Frame sync: 11 set bits; MPEG-1 (bits 11), Layer III (01).
    if (bytes[offset] !== 0xff || (bytes[offset + 1] & 0xfe) !== 0xfa) break;
    const kbps = BITRATES[bytes[offset + 2] >> 4];
    const rate = RATES[(bytes[offset + 2] >> 2) & 0b11];
    const padding = (bytes[offset + 2] >> 1) & 1;
    found.push({ offset, kbps });
    offset += Math.floor((144 * kbps * 1000) / rate) + padding;
  }
  return found;
}

describe('createMp3Encoding', () => {
  it('encodes a sine wave into MP3 frames at 128 kbps', async () => {
    const { blob, bytes } = await encode(sine(1));
    expect(blob.type).toBe('audio/mpeg');
    // The file starts with a frame header: the sync bytes 0xFF 0xFB (MPEG-1 Layer III, no CRC).
    expect(bytes[0]).toBe(0xff);
    expect(bytes[1]).toBe(0xfb);
    const found = frames(bytes);
    // One second at 44.1 kHz is 38.3 frames of 1152 samples (plus the encoder's delay), all 128 kbps.
    expect(found.length).toBeGreaterThanOrEqual(38);
    expect(found.every((frame) => frame.kbps === MP3_KBPS)).toBe(true);
    // The frames fill the file: nothing but audio frames (no tags).
    const last = found[found.length - 1];
    expect(bytes.length - last.offset).toBeLessThanOrEqual(418);
  });

  it('takes 16 000 bytes a second, so the size grows with the length', async () => {
    const one = (await encode(sine(1))).bytes.length;
    const three = (await encode(sine(3))).bytes.length;
    expect(one).toBeGreaterThan(15_500);
    expect(one).toBeLessThan(17_500);
    expect(three).toBeGreaterThan(47_000);
    expect(three).toBeLessThan(49_500);
    expect(three / one).toBeGreaterThan(2.7);
    expect(three / one).toBeLessThan(3.1);
  });

  it('gives the same file whatever the chunk size of the input', async () => {
    const samples = sine(0.5, 880);
    const small = await encode(samples, 128);
    const whole = await encode(samples, samples.length);
    expect(small.bytes).toEqual(whole.bytes);
  });

  it('encodes at 48 kHz (a common microphone rate) and refuses a rate MP3 cannot carry', async () => {
    const { bytes } = await encode(sine(1, 440, 48_000), 4096, 48_000);
    expect(frames(bytes).length).toBeGreaterThanOrEqual(41);
    expect(() => createMp3Encoding(96_000)).toThrow('96000');
  });
});

describe('toPcm16', () => {
  it('scales to 16 bits and clips', () => {
    expect([...toPcm16(new Float32Array([0, 1, -1, 0.5, 2, -3]))]).toEqual([0, 32767, -32768, 16383, 32767, -32768]);
  });
});
