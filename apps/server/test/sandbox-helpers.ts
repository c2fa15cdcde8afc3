import type { Session, TestServer } from './harness.js';

/** A connected sandbox connection of the session's company. */
export async function connectedSandbox(server: TestServer, admin: Session, body: Record<string, unknown> = {}) {
  const created = await server.app.inject({
    method: 'POST',
    url: '/whatsapp',
    headers: admin.headers,
    payload: { name: `Sandbox ${Math.random().toString(36).slice(2, 8)}`, provider: 'sandbox', ...body },
  });
  if (created.statusCode !== 201) throw new Error(`whatsapp: ${created.body}`);
  const id = created.json().id as number;
  await server.app.inject({ method: 'POST', url: `/whatsappsession/${id}`, headers: admin.headers });
  const scan = await server.app.inject({ method: 'POST', url: `/sandbox/${id}/scan`, headers: admin.headers });
  if (scan.statusCode !== 200) throw new Error(`scan: ${scan.body}`);
  return id;
}

export async function contactWrites(
  server: TestServer,
  admin: Session,
  whatsappId: number,
  payload: Record<string, unknown>,
) {
  const res = await server.app.inject({
    method: 'POST',
    url: `/sandbox/${whatsappId}/inbound`,
    headers: admin.headers,
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`inbound: ${res.statusCode} ${res.body}`);
  return res.json().providerId as string;
}

export async function phoneOf(server: TestServer, admin: Session, whatsappId: number, number: string) {
  const res = await server.app.inject({
    method: 'GET',
    url: `/sandbox/${whatsappId}/outbound?number=${number}`,
    headers: admin.headers,
  });
  return res.json() as {
    providerId: string;
    body: string;
    ack: number;
    media: { fileName: string } | null;
    /** Times this message id was sent (the phone shows it once). */
    sends: number;
  }[];
}

export async function waitUntil<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
