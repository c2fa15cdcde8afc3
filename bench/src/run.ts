export {};

/**
 * `npm run bench`: every benchmark in turn; each prints its figures beside its raw SQL baseline.
 * `npm run bench -- <name>` (foundation, tickets, outreach, workspace, api, inbound, startup, web) runs only that one.
 */
const only = process.argv[2];
if (!only || only === 'foundation') await import('./foundation.js');
if (!only || only === 'tickets') await import('./tickets.js');
if (!only || only === 'outreach') await import('./outreach.js');
if (!only || only === 'workspace') await import('./workspace.js');
if (!only || only === 'api') await import('./api-messages.js');
if (!only || only === 'inbound') await (await import('./inbound.js')).benchInbound();
