import { describe, expect, it } from 'vitest';
import { MIN_AUDIO_BYTES, recordingFile } from './useAudioRecorder';

describe('recordingFile', () => {
  it('keeps a recording of 10 000 bytes or more as audio.mp3 (audio/mpeg)', () => {
    const file = recordingFile(new Blob([new Uint8Array(MIN_AUDIO_BYTES)], { type: 'audio/mpeg' }));
    expect(file?.name).toBe('audio.mp3');
    expect(file?.type).toBe('audio/mpeg');
    expect(file?.size).toBe(10_000);
  });

  it('discards a shorter one', () => {
    expect(recordingFile(new Blob([new Uint8Array(MIN_AUDIO_BYTES - 1)]))).toBeNull();
  });
});
