import type { FilterField } from './ui/url-filters';

const yesNo = [
  { value: 'true', label: 'yes' },
  { value: 'false', label: 'no' },
] as const;

/** How the acting org stands to a node, as the fleet's badges say it. */
export const relationBadges = { owns: 'my org owns', manages: 'my org manages', uses: 'my org may use' } as const;

/**
 * The fleet's filters (docs/product.md §6), shared by the fleet page and the calendar, which
 * filters the same nodes with the same words.
 */
export const fleetFilterFields = (owners: readonly { id: string; name: string }[]): readonly FilterField[] => [
  { name: 'q', label: 'Search', kind: 'text', placeholder: 'node name or id' },
  // The owner as a person types it: a name or an id; the owners matching it are offered.
  { name: 'owner', label: 'Owner', kind: 'text', placeholder: 'e.g. Acme', suggestions: owners.map((o) => ({ value: o.name, label: o.id })) },
  {
    name: 'relation',
    label: 'My org',
    kind: 'select',
    options: Object.entries(relationBadges).map(([value, label]) => ({ value, label: label.replace(/^my org /, '') })),
  },
  { name: 'hasReleased', label: 'Released units', kind: 'select', options: yesNo },
  { name: 'needsReview', label: 'Needs review', kind: 'select', options: yesNo },
  {
    name: 'sort',
    label: 'Sort by',
    kind: 'select',
    allowAny: false,
    options: [
      { value: 'id', label: 'id' },
      { value: 'name', label: 'name' },
      { value: 'owner', label: 'owner id' },
      { value: 'createdAt', label: 'date added' },
    ],
  },
  {
    name: 'order',
    label: 'Order',
    kind: 'select',
    allowAny: false,
    options: [
      { value: 'asc', label: 'ascending' },
      { value: 'desc', label: 'descending' },
    ],
  },
];
