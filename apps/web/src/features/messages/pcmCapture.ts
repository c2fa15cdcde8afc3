const PROCESSOR = 'balcao-pcm-capture';
const FLUSH_TIMEOUT_MS = 1_000;

/**
 * The AudioWorklet processor: batches the (mono) input into chunks of 4096 samples, posts them,
 * and on "flush" posts what it holds followed by "flushed".
 */
const PROCESSOR_SOURCE = `
class PcmCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.buffer = new Float32Array(4096);
    this.length = 0;
    this.port.onmessage = (event) => {
      if (event.data !== 'flush') return;
      this.flush();
      this.port.postMessage('flushed');
    };
  }
  flush() {
    if (this.length === 0) return;
    const chunk = this.buffer.slice(0, this.length);
    this.port.postMessage(chunk, [chunk.buffer]);
    this.length = 0;
  }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel) {
      for (let i = 0; i < channel.length; i++) {
        this.buffer[this.length++] = channel[i];
        if (this.length === this.buffer.length) this.flush();
      }
    }
    return true;
  }
}
registerProcessor('${PROCESSOR}', PcmCapture);
`;

export interface PcmCapture {
  /** The rate of the samples delivered. */
  sampleRate: number;
  /** Delivers the last samples, then releases the audio graph. */
  stop(): Promise<void>;
  /** Releases the audio graph at once, dropping what was not delivered. */
  abort(): void;
}

/** An AudioContext at the device rate when it is one of `sampleRates`, else at the first of them. */
function audioContext(sampleRates: readonly number[]): AudioContext {
  const context = new AudioContext();
  if (sampleRates.includes(context.sampleRate)) return context;
  void context.close();
  return new AudioContext({ sampleRate: sampleRates[0] });
}

/**
 * Captures the microphone `stream` as mono PCM through an AudioWorklet: `onSamples` receives
 * chunks of samples (-1..1) at the returned `sampleRate`, one of `sampleRates` (the encoder's).
 */
export async function capturePcm(
  stream: MediaStream,
  sampleRates: readonly number[],
  onSamples: (samples: Float32Array) => void,
): Promise<PcmCapture> {
  if (typeof AudioContext === 'undefined' || typeof AudioWorkletNode === 'undefined')
    throw new Error('AudioWorklet unavailable');
  const context = audioContext(sampleRates);
  const moduleUrl = URL.createObjectURL(new Blob([PROCESSOR_SOURCE], { type: 'text/javascript' }));
  try {
    await context.audioWorklet.addModule(moduleUrl);
    await context.resume();
  } catch (err) {
    void context.close();
    throw err;
  } finally {
    URL.revokeObjectURL(moduleUrl);
  }
  const source = context.createMediaStreamSource(stream);
  // One explicit input channel: a stereo microphone is mixed down to mono.
  const node = new AudioWorkletNode(context, PROCESSOR, {
    numberOfInputs: 1,
    numberOfOutputs: 1,
    outputChannelCount: [1],
    channelCount: 1,
    channelCountMode: 'explicit',
    channelInterpretation: 'speakers',
  });
  let flushed: (() => void) | null = null;
  node.port.onmessage = (event: MessageEvent<Float32Array | 'flushed'>) => {
    if (event.data === 'flushed') flushed?.();
    else onSamples(event.data);
  };
  // The node outputs silence; reaching the destination keeps it processing in every browser.
  source.connect(node).connect(context.destination);

  const release = () => {
    node.port.onmessage = null;
    source.disconnect();
    node.disconnect();
    void context.close();
  };
  return {
    sampleRate: context.sampleRate,
    async stop() {
      await new Promise<void>((resolve) => {
        // A stalled audio thread must not hold the recording forever.
        const timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
        flushed = () => {
          clearTimeout(timer);
          resolve();
        };
        node.port.postMessage('flush');
      });
      release();
    },
    abort: release,
  };
}
