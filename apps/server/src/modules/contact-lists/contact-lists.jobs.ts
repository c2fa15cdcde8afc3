import type { Logger } from 'pino';
import type { AppDeps } from '../../platform/http/types.js';
import { registerImportJob } from '../contacts/contacts.import.js';
import { mergeImportedContacts } from '../contacts/contacts.service.js';
import { listWhatsapps } from '../whatsapp/whatsapp.service.js';
import { checkListNumbers, listImportTarget, VALIDATE_QUEUE } from './contact-lists.service.js';

/** The import job (contacts and lists) and the paced WhatsApp check of list items. */
export async function registerContactJobs(deps: AppDeps, log: Logger) {
  const db = deps.database.db;
  const base = { db, realtime: deps.realtime, jobs: deps.jobs };
  await registerImportJob(
    { ...base, storage: deps.storage },
    { contacts: mergeImportedContacts, list: (id) => listImportTarget(base, id) },
  );
  const checker = {
    gapMs: deps.config.CONTACT_CHECK_GAP_MS,
    // The default connection first, else any connected one; none connected: the items stay unchecked.
    async channelOf(companyId: number) {
      const connected = (await listWhatsapps(db, companyId))
        .filter((w) => w.status === 'CONNECTED')
        .sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
      for (const w of connected) {
        try {
          return deps.channels.get(w.id);
        } catch (err) {
          log.debug({ err, whatsappId: w.id }, 'connection not live here');
        }
      }
      return null;
    },
  };
  await deps.jobs.work<{ companyId: number; contactListId: number }>(VALIDATE_QUEUE, (job) =>
    checkListNumbers(base, checker, job.companyId, job.contactListId),
  );
}
