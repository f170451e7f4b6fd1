'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from './chart-points';

/**
 * The utilisation chart (docs/product.md §5.8 Utilisation): per bucket, the held GPU-hours
 * stacked by what they did — the audience's VMs, spot VMs, released with nobody on them, and
 * held idle. Loaded on demand only (./utilisation-chart-island.tsx): recharts never weighs on a
 * page's first load. Colours are the theme's unit colours (CSS variables), so the chart follows
 * light and dark like the grid. Its keyboard layer is off: the chart is an image to assistive
 * technology, and the table beside it is the way through the figures by keyboard.
 */
export default function UtilisationChart({ points }: { points: ChartPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -12 }} accessibilityLayer={false}>
        <CartesianGrid stroke="var(--color-line-soft)" vertical={false} />
        <XAxis dataKey="label" tick={{ fill: 'var(--color-ink-3)', fontSize: 11 }} stroke="var(--color-line)" interval="preserveStartEnd" minTickGap={16} />
        <YAxis tick={{ fill: 'var(--color-ink-3)', fontSize: 11 }} stroke="var(--color-line)" allowDecimals={false} />
        <Tooltip
          contentStyle={{ background: 'var(--color-surface)', border: '1px solid var(--color-line)', color: 'var(--color-ink)', fontSize: 12 }}
          labelStyle={{ color: 'var(--color-ink)' }}
          cursor={{ fill: 'var(--color-line-soft)' }}
          formatter={(v) => `${Number(v).toLocaleString('en', { maximumFractionDigits: 1 })} GPU-h`}
        />
        {/* The legend's words in the theme's ink (recharts colours them like their bars: too faint on dark). */}
        <Legend wrapperStyle={{ fontSize: 12 }} formatter={(value: string) => <span style={{ color: 'var(--color-ink-3)' }}>{value}</span>} />
        <Bar dataKey="reservedTier" name="Audience VMs" stackId="held" fill="var(--color-unit-reserved-occupied)" isAnimationActive={false} />
        <Bar dataKey="spot" name="Spot VMs" stackId="held" fill="var(--color-unit-spot-occupied)" isAnimationActive={false} />
        <Bar dataKey="idleReleased" name="Released, idle" stackId="held" fill="var(--color-unit-released-line)" isAnimationActive={false} />
        <Bar dataKey="idleHeld" name="Held, idle" stackId="held" fill="var(--color-unit-reserved-line)" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
