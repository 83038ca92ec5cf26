/**
 * The channel Postgres NOTIFYs on commit of any client-visible change (articles, their host sites, sites, keys),
 * sent by the triggers of migrations 2026-11-22T0300 and 2026-11-23T1950. Its payload names the transaction and,
 * when it can, the sites concerned (the API's caches read it: apps/api/src/delivery/content-notifications.ts).
 * An article change's outbox row commits with its notification, so the worker's relays wake on it too.
 */
export const contentChangedChannel = 'content_changed';
