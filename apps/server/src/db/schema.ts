export * from '../modules/companies/companies.schema.js';
export * from '../modules/plans/plans.schema.js';
export * from '../modules/queues/queues.schema.js';
export * from '../modules/settings/settings.schema.js';
export * from '../modules/users/users.schema.js';
