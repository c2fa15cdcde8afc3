declare global {
  interface Window {
    /** Set by `/env.js`, which the server's web host serves before the bundle loads. */
    __ENV__?: { BACKEND_URL?: string };
  }
}

/** Base URL of the API and the Socket.IO server, without a trailing slash. */
export function backendUrl(): string {
  const configured = window.__ENV__?.BACKEND_URL;
  const url = configured || `${window.location.protocol}//${window.location.hostname}:8080`;
  return url.replace(/\/+$/, '');
}
