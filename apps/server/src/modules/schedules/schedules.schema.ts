import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { contacts } from '../contacts/contacts.schema.js';
import { users } from '../users/users.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** Chosen and stored at creation (DOMAIN §7); a deleted connection falls back to the default when sent. */
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    /** The creator: the sent message is theirs (signature, history). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    sendAt: at('send_at').notNull(),
    sentAt: at('sent_at'),
    /** PENDENTE → ENVIANDO (claimed by one sender) → ENVIADA | ERRO; CANCELADA when the contact replied. */
    status: varchar('status', { length: 20 }).notNull().default('PENDENTE'),
    mediaKey: varchar('media_key', { length: 255 }),
    mediaName: varchar('media_name', { length: 255 }),
    mediaMime: varchar('media_mime', { length: 120 }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    recurrence: varchar('recurrence', { length: 10 }).notNull().default('none'),
    cancelIfReplied: boolean('cancel_if_replied').notNull().default(false),
    claimedAt: at('claimed_at'),
    /** The stored message once sent: the provider id lives there. */
    messageId: integer('message_id'),
    ...timestamps,
  },
  (t) => [
    index('schedules_company_send_at_idx').on(t.companyId, t.sendAt, t.id),
    // The sweeper's scan: only rows still to send.
    index('schedules_due_idx').on(t.sendAt).where(sql`${t.status} in ('PENDENTE', 'ENVIANDO')`),
    // The inbound pipeline's cancel-if-replied lookup.
    index('schedules_cancel_if_replied_idx')
      .on(t.contactId)
      .where(sql`${t.status} = 'PENDENTE' and ${t.cancelIfReplied}`),
  ],
);
