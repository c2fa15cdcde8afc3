/** OS notifications through the Notification API; every call is a no-op where it is missing. */

function api(): typeof Notification | undefined {
  return typeof Notification === 'undefined' ? undefined : Notification;
}

/** Asks for the permission when it was never answered; must run inside a user gesture. */
export function askPermission(): void {
  const N = api();
  if (N?.permission === 'default') void N.requestPermission().catch(() => undefined);
}

export interface DesktopNotice {
  /** One notice per tag: a newer one replaces it instead of piling up. */
  tag: string;
  title: string;
  body: string;
  onClick: () => void;
}

/** Shows the notice when allowed; a click brings the window forward and runs `onClick`. */
export function showDesktopNotice({ tag, title, body, onClick }: DesktopNotice): void {
  const N = api();
  if (N?.permission !== 'granted') return;
  try {
    const notice = new N(title, { tag, body });
    notice.onclick = () => {
      window.focus();
      onClick();
      notice.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the bell and the sound remain.
  }
}
