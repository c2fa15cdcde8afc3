import { useCallback, useEffect, useRef, useState } from 'react';

/** Recordings smaller than this are discarded silently (spec §9). */
export const MIN_AUDIO_BYTES = 10_000;
export const AUDIO_BITS_PER_SECOND = 128_000;

const CANDIDATES = ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm', 'audio/mp4'];
const EXTENSIONS: Record<string, string> = { 'audio/ogg': 'ogg', 'audio/webm': 'webm', 'audio/mp4': 'm4a' };

function recorderMime(): string | undefined {
  if (typeof MediaRecorder === 'undefined' || typeof MediaRecorder.isTypeSupported !== 'function') return undefined;
  return CANDIDATES.find((type) => MediaRecorder.isTypeSupported(type));
}

/** The recorded audio as a file to upload, or null when it is too short to keep. */
export function recordingFile(chunks: Blob[], mimeType: string, now: number = Date.now()): File | null {
  const type = (mimeType || 'audio/webm').split(';')[0];
  const blob = new Blob(chunks, { type });
  if (blob.size < MIN_AUDIO_BYTES) return null;
  return new File([blob], `audio-${now}.${EXTENSIONS[type] ?? 'webm'}`, { type });
}

/**
 * Voice notes through MediaRecorder. The browser's own compressed format (Opus in WebM or Ogg) is
 * uploaded: no MP3 encoder is installed in the project.
 */
export function useAudioRecorder() {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const chunks = useRef<Blob[]>([]);

  const release = useCallback(() => {
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    recorder.current = null;
    chunks.current = [];
    setRecording(false);
    setSeconds(0);
  }, []);

  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [recording]);

  useEffect(
    () => () => {
      if (recorder.current && recorder.current.state !== 'inactive') {
        recorder.current.onstop = null;
        recorder.current.stop();
      }
      for (const track of stream.current?.getTracks() ?? []) track.stop();
    },
    [],
  );

  /** Asks for the microphone and starts recording; rejects when it is refused or missing. */
  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
      throw new Error('MediaRecorder unavailable');
    const media = await navigator.mediaDevices.getUserMedia({ audio: true });
    const mimeType = recorderMime();
    const next = new MediaRecorder(media, {
      ...(mimeType ? { mimeType } : {}),
      audioBitsPerSecond: AUDIO_BITS_PER_SECOND,
    });
    chunks.current = [];
    next.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.current.push(event.data);
    };
    stream.current = media;
    recorder.current = next;
    next.start();
    setSeconds(0);
    setRecording(true);
  }, []);

  /** Stops and returns the file (null when under the minimum size). */
  const stop = useCallback(
    () =>
      new Promise<File | null>((resolve) => {
        const current = recorder.current;
        if (!current || current.state === 'inactive') {
          release();
          resolve(null);
          return;
        }
        current.onstop = () => {
          const file = recordingFile(chunks.current, current.mimeType);
          release();
          resolve(file);
        };
        current.stop();
      }),
    [release],
  );

  const cancel = useCallback(() => {
    const current = recorder.current;
    if (current && current.state !== 'inactive') {
      current.onstop = null;
      current.stop();
    }
    release();
  }, [release]);

  return { recording, seconds, start, stop, cancel };
}
