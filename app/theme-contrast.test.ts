/**
 * The theme's colour pairs meet WCAG AA in both themes (issue 23, docs/product.md §6 "Themes and
 * accessibility"), computed from app/globals.css itself: every unit state's text on its cell (the
 * withheld stripes included), the text inks on the surfaces they are used on, the soft notices,
 * the solid buttons, and the focus ring against every surface (3:1, WCAG 1.4.11). axe checks
 * the pages it renders; this checks every pair, shown or not, the grid's stripes included
 * (which axe cannot measure through a gradient).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

type Rgba = [number, number, number, number];
type Theme = 'light' | 'dark';

const css = fs.readFileSync(path.join(import.meta.dirname, 'globals.css'), 'utf8');

/** `--name: value;` declarations of the stylesheet (the last one wins, as in CSS). */
const declarations = new Map([...css.matchAll(/--([\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));

function parseColour(value: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(value);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1]!.slice(i, i + 2), 16)).concat(1) as Rgba;
  const rgb = /^rgb\((\d+) (\d+) (\d+)(?: \/ ([\d.]+))?\)$/.exec(value);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
  throw new Error(`not a colour this test reads: ${value}`);
}

/** A custom property's colour in one theme: the first or second half of its `light-dark()` pair. */
function colour(name: string, theme: Theme): Rgba {
  const value = declarations.get(name);
  if (value === undefined) throw new Error(`app/globals.css declares no --${name}`);
  const pair = /^light-dark\((.+?\)|#[0-9a-f]{6}),\s*(.+)\)$/i.exec(value);
  return parseColour(pair ? pair[theme === 'light' ? 1 : 2]!.trim() : value);
}

/** `top` painted over the opaque `bottom`. */
const over = (top: Rgba, bottom: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + bottom[i]! * (1 - top[3])).concat(1) as Rgba;

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The WCAG 2 contrast ratio of two opaque colours. */
function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const STATES = ['withheld', 'spot-occupied', 'released', 'reserved-occupied', 'reserved', 'occupied', 'free'];
const SURFACES = ['surface', 'surface-2', 'surface-3'];

/** [text, background] pairs that carry text, each at AA (4.5:1). */
const TEXT_PAIRS: [string, string][] = [
  ...['ink', 'ink-2', 'ink-3', 'ink-4', 'accent-ink', 'danger'].flatMap((ink) => SURFACES.map((s): [string, string] => [ink, s])),
  ['ink', 'surface-4'],
  ['ink-2', 'surface-4'],
  ['accent-ink', 'accent-soft'],
  ['accent-ink-strong', 'accent-soft-2'],
  ['danger-ink', 'danger-soft'],
  ['warn-ink', 'warn-soft'],
  ['warn-ink', 'warn-soft-2'],
  ['ok-ink', 'ok-soft'],
  ['ok-ink', 'ok-soft-2'],
  ['info-ink', 'info-soft'],
  ['on-accent', 'accent'],
  ['on-accent', 'accent-strong'],
  ['on-accent', 'danger-solid'],
  ['on-accent', 'danger-solid-strong'],
];

describe.each(['light', 'dark'] as const)('the %s theme', (theme) => {
  it.each(STATES)('a %s unit’s letter is AA on its cell', (state) => {
    const cell = colour(`color-unit-${state}`, theme);
    const ink = colour(`color-unit-${state}-ink`, theme);
    expect(contrast(ink, cell)).toBeGreaterThanOrEqual(4.5);
  });

  it('a withheld unit’s letter is AA on its stripes too', () => {
    const cell = colour('color-unit-withheld', theme);
    const stripe = over(colour('unit-withheld-stripe', theme), cell);
    expect(contrast(colour('color-unit-withheld-ink', theme), stripe)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(TEXT_PAIRS)('%s text on %s is AA', (text, background) => {
    expect(contrast(colour(`color-${text}`, theme), colour(`color-${background}`, theme))).toBeGreaterThanOrEqual(4.5);
  });

  it.each([...SURFACES, 'surface-4'])('the focus ring stands out (3:1) on %s', (surface) => {
    expect(contrast(colour('color-focus', theme), colour(`color-${surface}`, theme))).toBeGreaterThanOrEqual(3);
  });
});
