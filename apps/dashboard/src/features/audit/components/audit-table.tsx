import type { AuditEvent } from '../../../api/audit';

const actorOf = (event: AuditEvent) =>
  event.actor.type === 'system'
    ? `system${event.actor.label ? ` (${event.actor.label})` : ''}`
    : event.actor.type === 'anonymous'
      ? `anonymous${event.actor.label ? ` (tried ${event.actor.label})` : ''}`
      : (event.actor.label ?? event.actor.id ?? event.actor.type);

/** One row per event: when, who (and from where), what, on which object and site, and what changed. */
export function AuditTable({ events, siteNames }: { events: AuditEvent[]; siteNames: Map<string, string> }) {
  return (
    <div className="table-wrap">
      <table className="table table-wide">
        <caption className="visually-hidden">Audit entries</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Object</th>
            <th scope="col">Site</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.seq}>
              <td>
                <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time>
                <br />
                <span className="muted">#{event.seq}</span>
              </td>
              <td className="break-anywhere">
                {actorOf(event)}
                {event.address && (
                  <>
                    <br />
                    <span className="muted">{event.address}</span>
                  </>
                )}
              </td>
              <td>
                <code>{event.action}</code>
              </td>
              <td className="break-anywhere">
                {event.objectType.replace('_', ' ')}
                {event.objectId && (
                  <>
                    <br />
                    <span className="muted">{event.objectId}</span>
                  </>
                )}
              </td>
              <td>
                {event.siteId ? (
                  (siteNames.get(event.siteId) ?? event.siteId)
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td className="break-anywhere" style={{ maxWidth: 320 }}>
                {event.changes ? (
                  <details>
                    <summary>Show</summary>
                    <pre className="audit-changes">{JSON.stringify(event.changes, null, 2)}</pre>
                  </details>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
