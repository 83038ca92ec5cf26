import type { MonthlyReport } from '../../../api/reports';

export function ReportTable({ report }: { report: MonthlyReport }) {
  const totals = report.months.map((_, i) =>
    report.publishers.reduce((sum, p) => sum + (p.counts[i] ?? 0), 0),
  );
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">
          Articles per publisher per month, {report.from} to {report.to}
        </caption>
        <thead>
          <tr>
            <th scope="col">Publisher</th>
            {report.months.map((month) => (
              <th scope="col" key={month} className="num">
                {month}
              </th>
            ))}
            <th scope="col" className="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {report.publishers.map((publisher) => (
            <tr key={publisher.id}>
              <th scope="row">{publisher.name}</th>
              {publisher.counts.map((count, i) => (
                <td key={report.months[i]} className="num">
                  {count}
                </td>
              ))}
              <td className="num">
                <strong>{publisher.total}</strong>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">All publishers</th>
            {totals.map((total, i) => (
              <td key={report.months[i]} className="num">
                <strong>{total}</strong>
              </td>
            ))}
            <td className="num">
              <strong>{totals.reduce((a, b) => a + b, 0)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
