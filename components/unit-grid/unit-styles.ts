import type { UnitState } from '../trpc-types';

/** The pattern over the colour of states that share a hue family (withheld): the cue beside the colour. */
export const stripes = { backgroundImage: 'repeating-linear-gradient(135deg, transparent 0 6px, rgba(120,53,15,.35) 6px 8px)' };

export type UnitStyle = {
  label: string;
  /** The non-colour cue (docs/product.md §3): a letter, with ● when a VM runs on the unit. */
  glyph: string;
  /** Tailwind classes for the cell: background, border, text. */
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
    cell: 'bg-amber-200 border-amber-500 text-amber-950',
    pattern: 'stripes',
    description: 'Needs review after a topology change; usable by no one',
  },
  'spot-occupied': {
    label: 'Spot, occupied',
    glyph: 'S●',
    cell: 'bg-emerald-600 border-emerald-800 text-white',
    description: 'Released to the spot market; a spot VM runs on it',
  },
  released: { label: 'Released', glyph: 'S', cell: 'bg-emerald-100 border-emerald-500 text-emerald-900', description: 'Released to the spot market, idle' },
  'reserved-occupied': {
    label: 'Reserved, occupied',
    glyph: 'R●',
    cell: 'bg-sky-600 border-sky-800 text-white',
    description: 'Held by a reservation; a VM runs on it',
  },
  reserved: { label: 'Reserved', glyph: 'R', cell: 'bg-sky-100 border-sky-500 text-sky-900', description: 'Held by a reservation, idle' },
  occupied: { label: 'Occupied', glyph: 'O●', cell: 'bg-slate-500 border-slate-700 text-white', description: 'No reservation; a VM runs on it' },
  free: { label: 'Free', glyph: 'F', cell: 'bg-white border-slate-300 text-slate-700', description: 'No reservation, idle' },
};
