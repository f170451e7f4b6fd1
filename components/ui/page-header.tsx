import type { ReactNode } from 'react';
import type { offers } from '../offers';

/** A list page's title, one line on what it lists, and its controls (filters) on the right. */
export function PageHeader({
  title,
  description,
  offer,
  children,
}: {
  title: string;
  description: ReactNode;
  /** The page's console action (`offers('vms.page')`). */
  offer?: ReturnType<typeof offers>;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold" {...offer}>
          {title}
        </h1>
        <p className="text-sm text-ink-3">{description}</p>
      </div>
      {children}
    </div>
  );
}
