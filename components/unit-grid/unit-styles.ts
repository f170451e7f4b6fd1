import type { UnitState } from '../trpc-types';

/** The pattern over the colour of states that share a hue family (withheld): the cue beside the colour. */
export const stripes = { backgroundImage: 'repeating-linear-gradient(135deg, transparent 0 6px, var(--unit-withheld-stripe) 6px 8px)' };

export type UnitStyle = {
  label: string;
  /** The non-colour cue (docs/product.md §3): a letter, with ● when a VM runs on the unit. */
  glyph: string;
  /** Tailwind classes for the cell: background, border, text — the theme's `unit-*` tokens (app/globals.css). */
  cell: string;
  /** A pattern on top of the colour, for states that share a hue family. */
  pattern?: 'stripes';
  description: string;
};

/** Every unit state's colour and non-colour cue, in docs/product.md §3's precedence order. */
export const unitStyles: Record<UnitState, UnitStyle> = {
  withheld: {
    label: 'Withheld',
    glyph: 'W',
    cell: 'bg-unit-withheld border-unit-withheld-line text-unit-withheld-ink',
    pattern: 'stripes',
    description: 'Needs review after a topology change; usable by no one',
  },
  'spot-occupied': {
    label: 'Spot, occupied',
    glyph: 'S●',
    cell: 'bg-unit-spot-occupied border-unit-spot-occupied-line text-unit-spot-occupied-ink',
    description: 'Released to the spot market; a spot VM runs on it',
  },
  released: {
    label: 'Released',
    glyph: 'S',
    cell: 'bg-unit-released border-unit-released-line text-unit-released-ink',
    description: 'Released to the spot market, idle',
  },
  'reserved-occupied': {
    label: 'Reserved, occupied',
    glyph: 'R●',
    cell: 'bg-unit-reserved-occupied border-unit-reserved-occupied-line text-unit-reserved-occupied-ink',
    description: 'Held by a reservation; a VM runs on it',
  },
  reserved: {
    label: 'Reserved',
    glyph: 'R',
    cell: 'bg-unit-reserved border-unit-reserved-line text-unit-reserved-ink',
    description: 'Held by a reservation, idle',
  },
  occupied: {
    label: 'Occupied',
    glyph: 'O●',
    cell: 'bg-unit-occupied border-unit-occupied-line text-unit-occupied-ink',
    description: 'No reservation; a VM runs on it',
  },
  free: { label: 'Free', glyph: 'F', cell: 'bg-unit-free border-unit-free-line text-unit-free-ink', description: 'No reservation, idle' },
};
