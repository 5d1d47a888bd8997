import type { ComponentChildren } from 'preact';
import { call, client } from '../api';
import { Loaded } from '../components';
import { addDays, today } from '../dates';
import { useLoad } from '../hooks';

const DAYS_BACK = 90;
const COLUMNS = ['offered', 'accepted', 'refused', 'forced', 'worked'] as const;

/** Each callback list's equalization report over the last 90 days (GET /v1/lists/{id}/equalization). */
async function loadReports() {
  const end = today();
  const start = addDays(end, -DAYS_BACK);
  const lists = await call(client.GET('/v1/lists'));
  return Promise.all(
    lists.map((list) =>
      call(
        client.GET('/v1/lists/{id}/equalization', {
          params: { path: { id: Number(list.id) }, query: { start: `${start} 00:00:00`, end: `${end} 23:59:59` } },
        }),
      ),
    ),
  );
}

/** A box that scrolls sideways on a phone: keyboard users focus it to scroll it. */
function ScrollBox({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users focus the box to scroll it on a phone
    <section class="table-scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}

const round = (n: number) => String(Math.round(n * 10) / 10);

/**
 * Overtime equalization (admins): per callback list over the last 90 days, each person's hours
 * offered, accepted, refused, forced and worked, with the list's mean and spread, as the API
 * computes them (docs/workflows.md).
 */
export function Equalization() {
  const [value, reload] = useLoad(loadReports, []);
  return (
    <section aria-labelledby="equalization-title">
      <h2 id="equalization-title">Overtime equalization, last {DAYS_BACK} days</h2>
      <Loaded value={value} what="the equalization reports" retry={reload}>
        {(reports) =>
          reports.length === 0 ? (
            <p>No callback lists.</p>
          ) : (
            <>
              {reports.map((report) => (
                <ScrollBox key={report.list.id} label={`${report.list.name} equalization`}>
                  <table class="contacts equalization" data-list={report.list.id}>
                    <caption>{report.list.name} (hours)</caption>
                    <thead>
                      <tr>
                        <th scope="col">Person</th>
                        {COLUMNS.map((c) => (
                          <th scope="col" key={c}>
                            {c[0]!.toUpperCase() + c.slice(1)}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {report.people.map((p) => (
                        <tr key={p.user.id} data-user={p.user.id}>
                          <th scope="row">{p.user.name}</th>
                          {COLUMNS.map((c) => (
                            <td key={c}>{round(p[c])}</td>
                          ))}
                        </tr>
                      ))}
                      <tr>
                        <th scope="row">Mean (spread)</th>
                        {COLUMNS.map((c) => (
                          <td key={c}>
                            {round(report.mean[c])} (±{round(report.standard_deviation[c])})
                          </td>
                        ))}
                      </tr>
                    </tbody>
                  </table>
                </ScrollBox>
              ))}
            </>
          )
        }
      </Loaded>
    </section>
  );
}
