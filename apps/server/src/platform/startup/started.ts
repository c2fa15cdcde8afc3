import { channel } from 'node:diagnostics_channel';

/**
 * Published by main.ts once the API listens: the start-up path has run, and the built server's entry
 * (launch.ts) saves what V8 compiled for it.
 */
export const started = channel('balcao:started');
