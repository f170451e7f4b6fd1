const choices = [
  { theme: 'system', label: 'Auto', hint: 'Follow the system’s light or dark setting' },
  { theme: 'light', label: 'Light', hint: 'Always light' },
  { theme: 'dark', label: 'Dark', hint: 'Always dark' },
] as const;

/**
 * The theme preference (issue 23, docs/product.md §6 "Themes and accessibility"): follow the
 * system, or always light or dark. A server-rendered form with no script: `action` (passed in,
 * since components/ never imports app/) remembers the choice in a cookie and the page renders
 * again in it.
 */
export function ThemeSwitch({ theme, action }: { theme: 'system' | 'light' | 'dark'; action: (formData: FormData) => Promise<void> }) {
  return (
    <form action={action} aria-label="Theme" className="flex divide-x divide-line-strong rounded-md border border-line-strong text-xs text-ink-3">
      {choices.map((c) => (
        <button
          key={c.theme}
          type="submit"
          name="theme"
          value={c.theme}
          aria-pressed={theme === c.theme}
          title={c.hint}
          className={`px-2 py-1 first:rounded-l-md last:rounded-r-md hover:bg-surface-2 aria-pressed:bg-surface-3 aria-pressed:font-medium aria-pressed:text-ink`}
        >
          {c.label}
        </button>
      ))}
    </form>
  );
}
