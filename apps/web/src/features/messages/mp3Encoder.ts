import { Mp3Encoder } from '@breezystack/lamejs';

/** Voice notes are MP3 at 128 kbps (spec §2). */
export const MP3_KBPS = 128;

/** The sample rates an MP3 (MPEG-1/2 Layer III) can carry, the preferred one first. */
export const MP3_SAMPLE_RATES = [48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000];

/** Samples of one MPEG-1 Layer III frame: the encoder is fed whole frames. */
const FRAME_SAMPLES = 1152;

/** Web Audio samples (-1..1) as 16-bit PCM, clipped. */
export function toPcm16(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return pcm;
}

export interface Mp3Encoding {
  /** Adds mono samples (-1..1); they are encoded as soon as whole frames are available. */
  encode(samples: Float32Array): void;
  /** Encodes what is left and returns the MP3 file (audio/mpeg). */
  finish(): Blob;
}

/** A mono MP3 encoder (lamejs) at `kbps`, fed by chunks of any length. */
export function createMp3Encoding(sampleRate: number, kbps: number = MP3_KBPS): Mp3Encoding {
  if (!MP3_SAMPLE_RATES.includes(sampleRate)) throw new Error(`MP3 cannot carry ${sampleRate} Hz`);
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let pending = new Int16Array(0);

  // lamejs returns a fresh Int8Array per call: keep its bytes.
  const keep = (bytes: ArrayBufferView) => {
    if (bytes.byteLength > 0)
      parts.push(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength));
  };

  return {
    encode(samples) {
      const pcm = toPcm16(samples);
      const joined = new Int16Array(pending.length + pcm.length);
      joined.set(pending);
      joined.set(pcm, pending.length);
      const whole = joined.length - (joined.length % FRAME_SAMPLES);
      if (whole > 0) keep(encoder.encodeBuffer(joined.subarray(0, whole)));
      pending = joined.slice(whole);
    },
    finish() {
      if (pending.length > 0) keep(encoder.encodeBuffer(pending));
      pending = new Int16Array(0);
      keep(encoder.flush());
      return new Blob(parts, { type: 'audio/mpeg' });
    },
  };
}
