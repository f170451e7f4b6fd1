const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "30 Nov 2026, 14:05 UTC" */
export function formatDateTime(iso: string): string {
  return `${dateTime.format(new Date(iso))} UTC`;
}

/** "3 hours ago", "in 2 days" relative to `now`. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}

/**
 * "Terminate 3 spot VMs and reclaim 4 units" (docs/product.md §6), counting only what the
 * reclaim changes: the units it takes off the spot market, the VMs it ends. "Terminate 1 spot
 * VM" when no named unit is on the market (a spot VM that started before the reservation).
 */
export function reclaimLabel(vmCount: number, unitCount: number): string {
  const vms = `Terminate ${vmCount} spot VM${vmCount === 1 ? '' : 's'}`;
  const units = `reclaim ${unitCount} unit${unitCount === 1 ? '' : 's'}`;
  if (unitCount === 0) return vms;
  if (vmCount === 0) return units[0]!.toUpperCase() + units.slice(1);
  return `${vms} and ${units}`;
}

/** "1 Jun 2026, 12:00 UTC → open-ended": a half-open period (docs/product.md §4). */
export function formatPeriod(startsAt: string, endsAt: string | undefined): string {
  return `${formatDateTime(startsAt)} → ${endsAt ? formatDateTime(endsAt) : 'open-ended'}`;
}
