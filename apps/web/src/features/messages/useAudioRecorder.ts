import { useCallback, useEffect, useRef, useState } from 'react';
import type { Mp3Encoding } from './mp3Encoder';
import { capturePcm, type PcmCapture } from './pcmCapture';

/** Recordings smaller than this are discarded silently (spec §9). */
export const MIN_AUDIO_BYTES = 10_000;

/** The recorded MP3 as the file to upload, or null when it is too short to keep. */
export function recordingFile(mp3: Blob): File | null {
  if (mp3.size < MIN_AUDIO_BYTES) return null;
  return new File([mp3], 'audio.mp3', { type: 'audio/mpeg' });
}

interface Session {
  stream: MediaStream;
  capture: PcmCapture;
  encoding: Mp3Encoding;
}

/**
 * Voice notes: the microphone's PCM (through an AudioWorklet) encoded as MP3 at 128 kbps while
 * recording (spec §2). The encoder is loaded on the first recording.
 */
export function useAudioRecorder() {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const session = useRef<Session | null>(null);

  /** Ends the recording session (if any): the microphone is released and the bar goes away. */
  const end = useCallback((): Session | null => {
    const current = session.current;
    session.current = null;
    for (const track of current?.stream.getTracks() ?? []) track.stop();
    setRecording(false);
    setSeconds(0);
    return current;
  }, []);

  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [recording]);

  // Leaving the ticket while recording drops the recording.
  useEffect(() => () => end()?.capture.abort(), [end]);

  /** Asks for the microphone and starts recording; rejects when it is refused or missing. */
  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) throw new Error('Microphone unavailable');
    const [{ createMp3Encoding, MP3_SAMPLE_RATES }, stream] = await Promise.all([
      import('./mp3Encoder'),
      navigator.mediaDevices.getUserMedia({ audio: true }),
    ]);
    let capture: PcmCapture | null = null;
    let encoding: Mp3Encoding | null = null;
    try {
      capture = await capturePcm(stream, MP3_SAMPLE_RATES, (samples) => encoding?.encode(samples));
      encoding = createMp3Encoding(capture.sampleRate);
    } catch (err) {
      capture?.abort();
      for (const track of stream.getTracks()) track.stop();
      throw err;
    }
    session.current = { stream, capture, encoding };
    setSeconds(0);
    setRecording(true);
  }, []);

  /** Stops and returns the MP3 file (null when under the minimum size). */
  const stop = useCallback(async (): Promise<File | null> => {
    const current = end();
    if (!current) return null;
    await current.capture.stop();
    return recordingFile(current.encoding.finish());
  }, [end]);

  const cancel = useCallback(() => {
    end()?.capture.abort();
  }, [end]);

  return { recording, seconds, start, stop, cancel };
}
