import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MonthlyReport } from '../../../api/reports';

// Enough colours to tell series apart, each with contrast against white.
const palette = ['#0b5cad', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0f766e', '#a16207', '#4338ca'];
const maxSeries = palette.length - 1;

/** Stacked bars per month: the busiest publishers each, the rest as "Others". */
export function ReportChart({ report }: { report: MonthlyReport }) {
  const ranked = [...report.publishers].sort((a, b) => b.total - a.total);
  const shown = ranked.slice(0, maxSeries);
  const others = ranked.slice(maxSeries);
  const data = report.months.map((month, i) => {
    const row: Record<string, string | number> = { month };
    for (const p of shown) row[p.id] = p.counts[i] ?? 0;
    if (others.length) row.others = others.reduce((sum, p) => sum + (p.counts[i] ?? 0), 0);
    return row;
  });
  const series = [
    ...shown.map((p, i) => ({ key: p.id, name: p.name, color: palette[i] as string })),
    ...(others.length ? [{ key: 'others', name: `Others (${others.length})`, color: '#6b7280' }] : []),
  ];

  return (
    <figure style={{ margin: 0 }}>
      <div style={{ width: '100%', height: 320 }}>
        <ResponsiveContainer>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="month" />
            <YAxis allowDecimals={false} width={40} />
            <Tooltip />
            <Legend />
            {series.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.name} stackId="articles" fill={s.color} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted">Articles created per month (UTC), stacked by publisher.</figcaption>
    </figure>
  );
}
